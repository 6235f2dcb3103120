// ss-librarian: the top bar's librarian chooser — a combobox over the
// project's librarian profiles (GET /api/librarians). Typing filters the
// list; a librarian is chosen by picking one (or typing a name in any case
// and pressing Enter). Adding a librarian is the menu's last option "Add
// NAME as a new librarian" (POST /api/librarians), which Enter takes when it
// is the only one; a name that is part of a librarian's name is added only
// by picking Add, and leaving the field with a name that is no librarian
// keeps the one chosen before.

import { html, nothing } from 'lit';
import { message, type LibrarianProfile } from './api';
import { LightElement } from './base';
import { int } from './format';
import { librarian } from './state';
import './librarian-chooser.css';

export class LibrarianChooser extends LightElement {
  static override properties = {
    text: { state: true },
    open: { state: true },
    active: { state: true },
    profiles: { state: true },
    error: { state: true },
    busy: { state: true },
  };

  /** text is the raw text of the field; the stored name is trimmed. */
  declare text: string;
  declare open: boolean;
  /** active is the highlighted option (arrow keys), -1 for none. */
  declare active: number;
  declare profiles: LibrarianProfile[];
  declare error: string;
  declare busy: boolean;

  constructor() {
    super();
    this.text = librarian.name;
    this.open = false;
    this.active = -1;
    this.profiles = librarian.profiles;
    this.error = '';
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    librarian.addEventListener('change', this.#onName);
    librarian.addEventListener('profiles', this.#onProfiles);
    void librarian.loadProfiles();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    librarian.removeEventListener('change', this.#onName);
    librarian.removeEventListener('profiles', this.#onProfiles);
  }

  #onName = () => {
    if (this.text.trim() !== librarian.name) this.text = librarian.name;
  };

  #onProfiles = () => {
    this.profiles = librarian.profiles;
  };

  /** options are the profiles matching the text (all of them when the text is the current name), then "Add". */
  #options(): { name: string; add: boolean; profile?: LibrarianProfile }[] {
    const t = this.text.trim();
    const all = t === '' || (t === librarian.name && this.#showAll);
    const lower = t.toLowerCase();
    const out: { name: string; add: boolean; profile?: LibrarianProfile }[] = this.profiles
      .filter((p) => all || p.name.toLowerCase().includes(lower))
      .map((p) => ({ name: p.name, add: false, profile: p }));
    if (t && !librarian.isProfile(t) && !all) out.push({ name: t, add: true });
    return out;
  }

  /** showAll lists every profile rather than the ones matching: set when the menu opens, cleared by typing. */
  #showAll = true;

  #input(): HTMLInputElement | null {
    return this.querySelector<HTMLInputElement>('#librarian');
  }

  #onInput = (ev: Event) => {
    this.text = (ev.target as HTMLInputElement).value;
    this.#showAll = false;
    this.open = true;
    this.active = -1;
    this.error = '';
  };

  #onFocus = () => {
    this.#showAll = true;
    this.open = true;
    this.active = -1;
  };

  #onBlur = () => {
    this.open = false;
    if (this.busy) return;
    // Leaving the field chooses the librarian typed, if there is one; it adds no one.
    librarian.choose(this.text);
    this.text = librarian.name;
  };

  #onKey = (ev: KeyboardEvent) => {
    const opts = this.#options();
    switch (ev.key) {
      case 'ArrowDown':
        ev.preventDefault();
        this.open = true;
        this.active = opts.length ? (this.active + 1) % opts.length : -1;
        return;
      case 'ArrowUp':
        ev.preventDefault();
        this.open = true;
        this.active = opts.length ? (this.active <= 0 ? opts.length - 1 : this.active - 1) : -1;
        return;
      case 'Enter': {
        ev.preventDefault();
        const o = this.open && this.active >= 0 ? opts[this.active] : undefined;
        if (o) {
          void this.#commit(o.name, o.add, true);
          return;
        }
        const t = this.text.trim();
        if (!t || librarian.isProfile(t)) {
          void this.#commit(t, false, true);
          return;
        }
        // A name no librarian's name contains: Add is the menu's only option, and Enter takes it. A name
        // close to others (part of one) asks first, so a slip of the keyboard does not make a second profile.
        if (opts.length === 1 && opts[0].add) {
          void this.#commit(opts[0].name, true, true);
          return;
        }
        this.open = true;
        this.active = opts.findIndex((x) => x.add);
        this.error = `No librarian "${t}" in this project: choose one, or pick "Add ${t} as a new librarian".`;
        return;
      }
      case 'Escape':
        ev.preventDefault();
        if (this.open) this.open = false;
        else this.#input()?.blur();
        return;
    }
  };

  /**
   * commit chooses the librarian name, or with add adds it as a new
   * librarian first; with leave, the field is left so view shortcuts work.
   */
  async #commit(name: string, add: boolean, leave: boolean): Promise<void> {
    this.open = false;
    this.active = -1;
    if (!name) {
      if (leave) this.#input()?.blur();
      return;
    }
    if (!add) {
      librarian.choose(name);
      this.text = librarian.name;
      this.error = '';
      if (leave) this.#input()?.blur();
      return;
    }
    this.text = name;
    this.busy = true;
    const added = librarian.add(name);
    // busy tells the blur handler this name is on its way already.
    if (leave) this.#input()?.blur();
    try {
      this.text = await added;
      this.error = '';
    } catch (err) {
      this.error = message(err);
      this.text = librarian.name;
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const opts = this.open ? this.#options() : [];
    const cur = librarian.name;
    const activeId = this.active >= 0 && this.active < opts.length ? `librarian-opt-${this.active}` : '';
    return html`<div class="librarian ${cur ? '' : 'empty'}" title="Ratings and selection decisions are saved under this librarian">
      <label for="librarian">Librarian</label>
      <div class="combo">
        <input id="librarian" name="librarian" placeholder="choose or add…" autocomplete="off" spellcheck="false"
          role="combobox" aria-autocomplete="list" aria-expanded=${this.open && opts.length ? 'true' : 'false'}
          aria-controls="librarian-menu" aria-activedescendant=${activeId}
          .value=${this.text} @input=${this.#onInput} @focus=${this.#onFocus} @blur=${this.#onBlur} @keydown=${this.#onKey} />
        <button type="button" class="combo-arrow" tabindex="-1" aria-label="Show the librarians"
          @mousedown=${(ev: Event) => {
            ev.preventDefault(); // keep the focus in the field
            const box = this.#input();
            if (document.activeElement !== box) box?.focus();
            else {
              this.#showAll = true;
              this.open = !this.open;
            }
          }}>▾</button>
        ${this.busy ? html`<span class="spinner combo-spinner" aria-label="Saving"></span>` : nothing}
        ${this.open && opts.length
          ? html`<ul id="librarian-menu" class="combo-menu" role="listbox" aria-label="Librarians">
              ${opts.map(
                (o, i) => html`<li id="librarian-opt-${i}" role="option" aria-selected=${i === this.active ? 'true' : 'false'}
                  class="${i === this.active ? 'active' : ''} ${o.add ? 'add' : ''} ${!o.add && o.name === cur ? 'current' : ''}"
                  data-librarian=${o.add ? nothing : o.name} data-add=${o.add ? o.name : nothing}
                  @mousedown=${(ev: Event) => ev.preventDefault()} @click=${() => this.#commit(o.name, o.add, true)}>
                  ${o.add
                    ? html`<span class="plus" aria-hidden="true">+</span> Add <strong>${o.name}</strong> as a new librarian`
                    : html`<span class="check" aria-hidden="true">${o.name === cur ? '✓' : ''}</span>
                        <span class="who">${o.name}</span>
                        <span class="muted">${int(o.profile?.ratings ?? 0)} rated</span>`}
                </li>`,
              )}
            </ul>`
          : nothing}
        ${this.error ? html`<div class="combo-error" role="alert">${this.error}</div>` : nothing}
      </div>
    </div>`;
  }
}

customElements.define('ss-librarian', LibrarianChooser);

declare global {
  interface HTMLElementTagNameMap {
    'ss-librarian': LibrarianChooser;
  }
}
