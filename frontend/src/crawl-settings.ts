// ss-crawl-settings: the project's crawl settings on the Crawl page — who runs
// the crawl (contact, user agent) and how politely (delay, parallel sites, max
// delay). Loaded from GET /api/settings and saved with PUT /api/settings; the
// crawl form sends only the fields changed here and not yet saved, which the
// server then keeps for the next crawls too.

import { html, nothing } from 'lit';
import { api, LINK_GRAPHS, message, type CrawlSettings, type LinkGraphSetting, type SettingsChange } from './api';
import { LightElement } from './base';
import { alertBox, Loader, spinner } from './loader';
import './crawl-settings.css';

type TextKey = 'contact' | 'user_agent';
type NumKey = 'delay_ms' | 'parallel' | 'max_delay_ms';
type Key = TextKey | NumKey;

/** Draft is what the fields hold, as typed. */
type Draft = Record<Key, string>;

interface NumberSpec {
  key: NumKey;
  /** name is the field's name in messages; label its label. */
  name: string;
  label: string;
  hint: string;
  min: number;
  max?: number;
}

const NUMBERS: NumberSpec[] = [
  {
    key: 'delay_ms',
    name: 'Delay',
    label: 'Delay (ms)',
    hint: 'Delay per site: the least time between two requests to one site; a longer robots.txt Crawl-delay wins',
    min: 0,
  },
  { key: 'parallel', name: 'Parallel sites', label: 'Parallel sites', hint: 'Sites fetched at once (1–64)', min: 1, max: 64 },
  {
    key: 'max_delay_ms',
    name: 'Max delay',
    label: 'Max delay (ms)',
    hint: 'The longest delay a site may ask for (Crawl-delay, Retry-After); a site asking for more is not crawled and shows as slow',
    min: 1,
  },
];

function draftOf(s: CrawlSettings): Draft {
  return {
    contact: s.contact ?? '',
    user_agent: s.user_agent ?? '',
    delay_ms: s.delay_ms === undefined ? '' : String(s.delay_ms),
    parallel: s.parallel === undefined ? '' : String(s.parallel),
    max_delay_ms: s.max_delay_ms === undefined ? '' : String(s.max_delay_ms),
  };
}

/** isContactMessage tells the server's "this crawl needs a contact" refusal from other errors. */
export function isContactMessage(msg: string): boolean {
  return /\bcontact\b/i.test(msg);
}

export class CrawlSettingsPanel extends LightElement {
  static override properties = {
    draft: { state: true },
    saving: { state: true },
    saveError: { state: true },
    contactError: { state: true },
    note: { state: true },
  };

  declare draft: Draft;
  declare saving: boolean;
  declare saveError: string;
  /** contactError is a refusal about the contact (a crawl of the open web without one), shown at its field. */
  declare contactError: string;
  declare note: string;

  #settings = new Loader<CrawlSettings>(this);

  constructor() {
    super();
    this.draft = { contact: '', user_agent: '', delay_ms: '', parallel: '', max_delay_ms: '' };
    this.saving = false;
    this.saveError = '';
    this.contactError = '';
    this.note = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.reload();
  }

  /** reload fetches the stored settings; fields the user changed and did not save keep their text. */
  async reload(): Promise<void> {
    const before = this.#settings.value;
    const pending = before ? this.#changedKeys() : [];
    if ((await this.#settings.run((signal) => api.settings(signal))) !== 'done') return;
    const fresh = draftOf(this.#settings.value!);
    for (const k of pending) fresh[k] = this.draft[k];
    this.draft = fresh;
  }

  /** #changedKeys are the fields whose text differs from the stored settings. */
  #changedKeys(): Key[] {
    const s = this.#settings.value;
    if (!s) return [];
    const stored = draftOf(s);
    return (Object.keys(stored) as Key[]).filter((k) => this.draft[k].trim() !== stored[k]);
  }

  /**
   * changes is what the user changed and has not saved, as settings fields (to
   * send with a crawl or a save), or a message saying which field is wrong.
   * Nothing changed (or no settings loaded): an empty object.
   */
  changes(): SettingsChange | string {
    const out: SettingsChange = {};
    for (const k of this.#changedKeys()) {
      const raw = this.draft[k].trim();
      if (k === 'contact' || k === 'user_agent') {
        out[k] = raw;
        continue;
      }
      const spec = NUMBERS.find((n) => n.key === k)!;
      const n = Number(raw);
      if (raw === '' || !Number.isInteger(n) || n < spec.min || (spec.max !== undefined && n > spec.max)) {
        return `${spec.name} must be a whole number ${spec.max === undefined ? `≥ ${spec.min}` : `from ${spec.min} to ${spec.max}`}.`;
      }
      out[k] = n;
    }
    return out;
  }

  /** showContactError shows a refusal about the contact beside its field and focuses the field. */
  showContactError(msg: string): void {
    this.contactError = msg;
    void this.updateComplete.then(() => {
      const input = this.querySelector<HTMLInputElement>('#settings-contact');
      input?.scrollIntoView({ block: 'center' });
      input?.focus();
    });
  }

  #field(key: Key) {
    return (ev: Event) => {
      this.draft = { ...this.draft, [key]: (ev.target as HTMLInputElement).value };
      this.note = '';
      if (key === 'contact') this.contactError = '';
    };
  }

  #onSave = async (ev: Event) => {
    ev.preventDefault();
    const change = this.changes();
    if (typeof change === 'string') {
      this.saveError = change;
      return;
    }
    this.saving = true;
    try {
      const saved = await api.saveSettings(change);
      this.#settings.value = saved;
      this.draft = draftOf(saved);
      this.saveError = '';
      this.contactError = '';
      this.note = 'Saved: the next crawls use these settings.';
    } catch (err) {
      const msg = message(err);
      if (isContactMessage(msg) && 'contact' in change) this.showContactError(msg);
      else this.saveError = msg;
    } finally {
      this.saving = false;
    }
  };

  #numberField(n: NumberSpec) {
    return html`<label class="field" title=${n.hint}>
      <span>${n.label}</span>
      <input id=${`settings-${n.key.replace(/_/g, '-')}`} type="number" min=${n.min} max=${n.max ?? nothing} step="1"
        .value=${this.draft[n.key]} @input=${this.#field(n.key)} />
    </label>`;
  }

  override render() {
    const s = this.#settings.value;
    const dirty = this.#changedKeys().length > 0;
    return html`<form class="panel form crawl-settings" @submit=${this.#onSave} novalidate>
      <h2>Crawl settings ${spinner(this.#settings.loading)}</h2>
      ${alertBox(this.#settings.error)}
      ${!s
        ? nothing
        : html`<p class="muted small lead">Kept with the project: every crawl uses them, from here or from <code>sitesift crawl</code>.</p>
            <label class="field">
              <span>Contact <span class="muted">(e-mail or web page for webmasters)</span></span>
              <input id="settings-contact" type="text" spellcheck="false" autocomplete="email" placeholder="you@library.org"
                aria-invalid=${this.contactError ? 'true' : 'false'} aria-describedby="settings-contact-error"
                .value=${this.draft.contact} @input=${this.#field('contact')} />
            </label>
            ${this.contactError
              ? html`<div class="alert contact-error" id="settings-contact-error" role="alert">${this.contactError}</div>`
              : nothing}
            <label class="field">
              <span>User agent <span class="muted">(empty = sitesift's, with the contact)</span></span>
              <input id="settings-user-agent" type="text" spellcheck="false" placeholder="mybot/1.0 (+https://library.org/crawl)"
                .value=${this.draft.user_agent} @input=${this.#field('user_agent')} />
            </label>
            ${s.effective_user_agent
              ? html`<p class="effective-ua small"><span class="muted">Sent as</span> <code id="settings-effective-ua">${s.effective_user_agent}</code>
                  ${dirty ? html`<span class="muted">(before your changes)</span>` : nothing}</p>`
              : nothing}
            <div class="field-row three">
              ${NUMBERS.filter((n) => s[n.key] !== undefined).map((n) => this.#numberField(n))}
            </div>
            ${alertBox(this.saveError)}
            <div class="actions">
              <button type="submit" class="btn" id="settings-save" ?disabled=${!dirty || this.saving}>Save settings</button>
              ${dirty
                ? html`<span class="muted small" id="settings-dirty">Not saved: starting a crawl uses and keeps them too.</span>`
                : this.note
                  ? html`<span class="muted small" id="settings-saved">${this.note}</span>`
                  : nothing}
            </div>
            ${this.#renderApproval(s)} ${this.#renderLinks(s)}`}
    </form>`;
  }

  /** linksNote says the links setting was saved, or why not. */
  #linksNote = '';

  /** renderLinks is the site graph the importance is computed on, saved (and the importance computed again) as soon as it changes. */
  #renderLinks(s: CrawlSettings) {
    if (s.links === undefined) return nothing;
    const change = async (ev: Event) => {
      const sel = ev.target as HTMLSelectElement;
      const before = s.links;
      sel.disabled = true;
      try {
        const saved = await api.saveSettings({ links: sel.value as LinkGraphSetting });
        this.#settings.value = { ...s, links: saved.links };
        this.#linksNote = `Saved: the importance is now computed on ${saved.links === 'all' ? 'all links' : 'editorial links'}.`;
      } catch (err) {
        sel.value = before ?? 'editorial';
        this.#linksNote = message(err);
      } finally {
        sel.disabled = false;
      }
      this.requestUpdate();
    };
    return html`<fieldset class="links-setting">
      <legend>Importance</legend>
      <label for="settings-links">Links ranked on</label>
      <select id="settings-links" .value=${s.links} @change=${change}>
        ${LINK_GRAPHS.map((g) => html`<option value=${g} ?selected=${g === s.links}>${g === 'all' ? 'All links' : 'Editorial links (default)'}</option>`)}
      </select>
      <p class="muted small">
        Editorial links are those inside a page's main text, which its authors wrote; all links add the page template's
        navigation, footers and share buttons, which make share and publisher sites look important.
      </p>
      ${this.#linksNote ? html`<p class="muted small" id="settings-links-saved" role="status">${this.#linksNote}</p>` : nothing}
    </fieldset>`;
  }

  /** approvalNote says the approval setting was saved, or why not. */
  #approvalNote = '';

  /** renderApproval is the project's selection setting, saved as soon as it changes: two-person approval unless a lone librarian needs otherwise. */
  #renderApproval(s: CrawlSettings) {
    if (s.single_person_approval === undefined) return nothing;
    const change = async (ev: Event) => {
      const box = ev.target as HTMLInputElement;
      try {
        const saved = await api.saveSettings({ single_person_approval: box.checked });
        this.#settings.value = { ...s, single_person_approval: saved.single_person_approval };
        this.#approvalNote = saved.single_person_approval
          ? 'Saved: a librarian may approve the sites they nominated.'
          : 'Saved: approval needs another librarian than the nominator.';
      } catch (err) {
        box.checked = !box.checked;
        this.#approvalNote = message(err);
      }
      this.requestUpdate();
    };
    return html`<fieldset class="approval-setting">
      <legend>Selection</legend>
      <label class="check" title="Off (the default): the librarian who nominated a site cannot approve it, so two librarians look at every approved site">
        <input id="settings-single-approval" type="checkbox" .checked=${s.single_person_approval} @change=${change} />
        Single-person approval <span class="muted">(a lone librarian may approve their own nominations)</span>
      </label>
      ${this.#approvalNote ? html`<p class="muted small" id="settings-approval-saved" role="status">${this.#approvalNote}</p>` : nothing}
    </fieldset>`;
  }
}

customElements.define('ss-crawl-settings', CrawlSettingsPanel);

declare global {
  interface HTMLElementTagNameMap {
    'ss-crawl-settings': CrawlSettingsPanel;
  }
}
