// ss-accounts: `#/accounts` — a team server's accounts, for its admins
// (docs/team.md): add an account with a role, change a role, disable or
// enable an account, reset one (a new password and a one-time sign-in
// link, shown here once, to copy and hand over), and see when each last
// signed in. The rules (admins only, no admin disables themself, the last
// enabled admin stays) are the server's; the page offers what they allow
// and shows the server's refusal all the same.

import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { message, request, type Answer } from './api';
import { LightElement } from './base';
import { date, int } from './format';
import { alertBox, Loader, spinner } from './loader';
import { team } from './team';
import './accounts-view.css';

type Account = NonNullable<Answer<'GET /api/accounts'>>[number];
type Granted = Answer<'POST /api/accounts'>;

const ROLES = ['curator', 'approver', 'admin'] as const;

const ROLE_HELP: Record<string, string> = {
  curator: 'rates, notes, nominates, searches, reviews, exports',
  approver: 'also approves, rejects and reopens',
  admin: 'also crawls, imports, changes settings and accounts',
};

/** isAdmin tells whether the signed-in librarian of a team server is an admin: the page is theirs alone. */
export function isAdmin(): boolean {
  return team.me?.role === 'admin';
}

/** enabledAdmins counts the enabled admin accounts: the last of them keeps its role and stays enabled. */
function enabledAdmins(as: Account[]): number {
  return as.filter((a) => a.role === 'admin' && !a.disabled).length;
}

function state(a: Account): string {
  if (a.disabled) return 'disabled';
  if (a.link_pending) return 'sign-in link pending';
  return 'active';
}

export class AccountsView extends LightElement {
  static override properties = {
    granted: { state: true },
    grantedVerb: { state: true },
    busy: { state: true },
    actionError: { state: true },
    confirmReset: { state: true },
    copied: { state: true },
  };

  /** granted is the answer of the last add or reset: its password and link are shown once, until the next action. */
  declare granted: Granted | null;
  declare grantedVerb: string;
  declare busy: boolean;
  declare actionError: string;
  /** confirmReset names the account whose reset waits for a second click. */
  declare confirmReset: string;
  declare copied: string;

  #accounts = new Loader<Account[]>(this, []);

  constructor() {
    super();
    this.granted = null;
    this.grantedVerb = '';
    this.busy = false;
    this.actionError = '';
    this.confirmReset = '';
    this.copied = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (isAdmin()) void this.#load();
  }

  #load(): Promise<unknown> {
    return this.#accounts.run((signal) => request<Account[]>('GET', '/api/accounts', undefined, signal));
  }

  /** act runs one change, then reads the accounts again; the server's refusal shows above the table. */
  async #act(what: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.actionError = '';
    // A password and link shown before go with the next action: they were to be handed over at once.
    this.granted = null;
    try {
      await what();
    } catch (err) {
      this.actionError = message(err);
    } finally {
      this.busy = false;
      this.confirmReset = '';
      await this.#load();
    }
  }

  #add = (ev: Event) => {
    ev.preventDefault();
    const f = ev.target as HTMLFormElement;
    const name = (f.elements.namedItem('name') as HTMLInputElement).value.trim();
    const role = (f.elements.namedItem('role') as HTMLSelectElement).value;
    if (!name) return;
    void this.#act(async () => {
      this.granted = await request<Granted>('POST', '/api/accounts', { name, role });
      this.grantedVerb = 'added';
      this.copied = '';
      f.reset();
    });
  };

  #change(name: string, body: { role?: string; disable?: boolean; enable?: boolean; reset?: boolean }) {
    return request<Granted>('PUT', `/api/accounts/${encodeURIComponent(name)}`, body);
  }

  #reset(name: string) {
    if (this.confirmReset !== name) {
      this.confirmReset = name;
      return;
    }
    void this.#act(async () => {
      this.granted = await this.#change(name, { reset: true });
      this.grantedVerb = 'reset';
      this.copied = '';
    });
  }

  #link(g: Granted): string {
    return `${location.origin}/?signin=${g.link_token}`;
  }

  async #copy(text: string, what: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.copied = `${what} copied.`;
    } catch {
      // The clipboard needs a secure context and permission: select the field so Ctrl+C copies it.
      const input = this.querySelector<HTMLInputElement>(what === 'Link' ? '#granted-link' : '#granted-password');
      input?.select();
      this.copied = 'Clipboard unavailable — selected, press Ctrl+C.';
    }
  }

  #renderGranted() {
    const g = this.granted;
    if (!g) return nothing;
    const link = this.#link(g);
    return html`<div class="granted" role="status" id="granted">
      <p>
        <strong>${g.account.name}</strong> (${g.account.role})
        ${this.grantedVerb === 'reset' ? 'has a new password and sign-in link; their sessions ended.' : 'added.'}
        Hand this over now: it is shown once and kept nowhere.
      </p>
      <label class="field granted-field">
        <span>Sign-in link, works once, until ${date(g.link_expires)}</span>
        <span class="granted-row">
          <input id="granted-link" readonly .value=${link} @focus=${(ev: Event) => (ev.target as HTMLInputElement).select()} />
          <button type="button" class="btn" id="copy-link" @click=${() => this.#copy(link, 'Link')}>Copy link</button>
        </span>
      </label>
      ${g.password
        ? html`<label class="field granted-field">
            <span>Password</span>
            <span class="granted-row">
              <input id="granted-password" readonly .value=${g.password} @focus=${(ev: Event) => (ev.target as HTMLInputElement).select()} />
              <button type="button" class="btn" id="copy-password" @click=${() => this.#copy(g.password ?? '', 'Password')}>Copy password</button>
            </span>
          </label>`
        : nothing}
      <p class="muted small">
        ${this.copied ? html`<span id="copied">${this.copied}</span> ` : nothing}The link signs its holder in without the
        password; they may then change it.
        <button type="button" class="link-btn" id="granted-done" @click=${() => (this.granted = null)}>Done</button>
      </p>
    </div>`;
  }

  #renderRow(a: Account, lastAdmin: boolean) {
    const me = team.me?.name.toLowerCase() === a.name.toLowerCase();
    const keep = lastAdmin && a.role === 'admin' && !a.disabled;
    const keepWhy = 'the last enabled admin account: make another account an admin first';
    return html`<tr data-account=${a.name} data-state=${state(a)}>
      <td><strong>${a.name}</strong>${me ? html` <span class="muted">(you)</span>` : nothing}</td>
      <td>
        <select aria-label="Role of ${a.name}" data-role-of=${a.name} ?disabled=${this.busy} .value=${live(a.role)}
          @change=${(ev: Event) => {
            const role = (ev.target as HTMLSelectElement).value;
            void this.#act(async () => {
              await this.#change(a.name, { role });
            });
          }}>
          ${ROLES.map(
            (r) => html`<option value=${r} ?selected=${a.role === r} ?disabled=${keep && r !== 'admin'}
              title=${keep && r !== 'admin' ? keepWhy : ROLE_HELP[r]}>${r}</option>`,
          )}
        </select>
      </td>
      <td class="account-state state-${a.disabled ? 'disabled' : 'enabled'}">${state(a)}</td>
      <td>
        ${a.last_sign_in
          ? html`<time datetime=${a.last_sign_in}>${date(a.last_sign_in)}</time>`
          : html`<span class="muted">never</span>`}
      </td>
      <td class="num">${int(a.ratings)}</td>
      <td class="account-actions">
        ${this.confirmReset === a.name
          ? html`<button type="button" class="btn primary" data-reset=${a.name} ?disabled=${this.busy} @click=${() => this.#reset(a.name)}>
                Confirm reset</button>
              <button type="button" class="btn" @click=${() => (this.confirmReset = '')}>Cancel</button>`
          : html`<button type="button" class="btn" data-reset=${a.name} ?disabled=${this.busy}
              title="A new password and one-time sign-in link; ${a.name}'s sessions end" @click=${() => this.#reset(a.name)}>
              Reset…</button>`}
        ${a.disabled
          ? html`<button type="button" class="btn" data-enable=${a.name} ?disabled=${this.busy}
              title="${a.name} signs in again with the password they had"
              @click=${() => this.#act(async () => void (await this.#change(a.name, { enable: true })))}>Enable</button>`
          : html`<button type="button" class="btn" data-disable=${a.name} ?disabled=${this.busy || me || keep}
              title=${me ? 'an admin cannot disable their own account: ask another admin' : keep ? keepWhy : `${a.name} cannot sign in; their ratings and decisions stay`}
              @click=${() => this.#act(async () => void (await this.#change(a.name, { disable: true })))}>Disable</button>`}
      </td>
    </tr>`;
  }

  override render() {
    if (!isAdmin()) {
      return html`<section class="panel accounts">
        <h2>Accounts</h2>
        <p class="muted" id="accounts-not-admin">${team.me
          ? 'Accounts are managed by the team’s admins. Ask one to add an account, change a role or send a new sign-in link.'
          : 'This sitesift serves one user: accounts exist on a team server (sitesift serve --team).'}</p>
      </section>`;
    }
    const as = this.#accounts.value ?? [];
    const lastAdmin = enabledAdmins(as) <= 1;
    return html`<section class="panel accounts">
      <h2>Accounts <span class="count">${as.length}</span></h2>
      <p class="muted">Who signs in to this team server, with which role. A disabled account keeps its ratings and decisions.</p>
      <form class="accounts-add" @submit=${this.#add} aria-label="Add an account">
        <label class="field"><span>Name</span><input name="name" id="account-name" autocomplete="off" spellcheck="false" required /></label>
        <label class="field"><span>Role</span>
          <select name="role" id="account-role">
            ${ROLES.map((r) => html`<option value=${r} title=${ROLE_HELP[r]}>${r}</option>`)}
          </select>
        </label>
        <button class="btn primary" type="submit" id="account-add" ?disabled=${this.busy}>Add account</button>
        <span class="muted small">A librarian who rated before keeps their ratings under the new account.</span>
      </form>
      ${this.#renderGranted()} ${alertBox(this.actionError)} ${spinner(this.#accounts.loading)} ${alertBox(this.#accounts.error)}
      ${as.length
        ? html`<table class="accounts-table">
            <thead><tr><th>Name</th><th>Role</th><th>State</th><th>Last sign-in</th><th class="num">Ratings</th><th>Actions</th></tr></thead>
            <tbody>${as.map((a) => this.#renderRow(a, lastAdmin))}</tbody>
          </table>`
        : nothing}
    </section>`;
  }
}

customElements.define('ss-accounts', AccountsView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-accounts': AccountsView;
  }
}
