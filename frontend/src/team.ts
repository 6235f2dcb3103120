// The team server (`sitesift serve --team`, docs/team.md): every librarian
// signs in, and the app acts as them alone. startApp asks GET /api/me once:
// 404 is a one-user sitesift (the desktop window, a plain serve), which
// shows the app as it always has; 401 shows the sign-in form; a signed-in
// librarian gets the app with their name fixed and, in the top bar,
// "signed in as ana · sign out" instead of the librarian chooser.

import { html, nothing, render, type TemplateResult } from 'lit';
import { ApiError, message, request, UNAUTHORIZED_EVENT, type Answer } from './api';
import { LightElement } from './base';
import { librarian } from './state';
import './team.css';

/** Me is the signed-in librarian. */
export type Me = Answer<'GET /api/me'>;

/**
 * team holds the signed-in librarian of a team server; me is null on a
 * one-user sitesift. selfApproval is the project's single-person approval
 * setting: whether the librarian who nominated a site may approve it too.
 */
export const team: { me: Me | null; selfApproval: boolean } = { me: null, selfApproval: false };

/** startApp decides what the page shows: the app, or the sign-in form. */
export async function startApp(): Promise<void> {
  const link = new URLSearchParams(location.search).get('signin');
  if (link) {
    // A one-time link: sign in with it, then drop it from the address bar
    // and the history, where it would be worth nothing but noise.
    history.replaceState(null, '', location.pathname + location.hash);
    try {
      await login({ link });
    } catch (err) {
      mount(html`<ss-sign-in .error=${message(err)}></ss-sign-in>`);
      return;
    }
  }
  try {
    team.me = await request<Me>('GET', '/api/me');
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      mount(html`<ss-sign-in></ss-sign-in>`);
      return;
    }
    // 404: one user, no accounts. Anything else: the app shows the trouble itself.
  }
  if (team.me) {
    librarian.pin(team.me.name);
    try {
      team.selfApproval = (await request<Answer<'GET /api/settings'>>('GET', '/api/settings')).single_person_approval;
    } catch {
      // Offered or not, an approval of one's own nomination is the server's to refuse.
    }
    // The session ended while the app was open: show the sign-in form,
    // once (a one-user sitesift with --token answers 401 too, and must not reload).
    window.addEventListener(UNAUTHORIZED_EVENT, () => location.reload(), { once: true });
  }
  document.body.prepend(document.createElement('ss-app'));
}

function mount(t: TemplateResult): void {
  const host = document.createElement('div');
  host.className = 'signin-host';
  document.body.prepend(host);
  render(t, host);
}

async function login(body: { name?: string; password?: string; link?: string }): Promise<Me> {
  return request<Answer<'POST /api/login'>>('POST', '/api/login', body);
}

/** ss-sign-in is the sign-in form of a team server. */
export class SignIn extends LightElement {
  static override properties = { error: { attribute: false }, busy: { state: true } };
  declare error: string;
  declare busy: boolean;

  constructor() {
    super();
    this.error = '';
    this.busy = false;
  }

  #submit = async (ev: Event) => {
    ev.preventDefault();
    const f = ev.target as HTMLFormElement;
    const name = (f.elements.namedItem('name') as HTMLInputElement).value.trim();
    const password = (f.elements.namedItem('password') as HTMLInputElement).value;
    this.busy = true;
    try {
      await login({ name, password });
      location.reload();
    } catch (err) {
      this.error = message(err);
      this.busy = false;
      this.requestUpdate();
    }
  };

  override render() {
    return html`<main class="signin">
      <form class="panel signin-form" @submit=${this.#submit} aria-labelledby="signin-title">
        <h1 id="signin-title"><span class="logo" aria-hidden="true"></span> sitesift</h1>
        <p class="muted">This sitesift serves a team: sign in with the name and password an admin gave you.</p>
        <label class="field"><span>Name</span><input name="name" id="signin-name" autocomplete="username" required autofocus /></label>
        <label class="field"><span>Password</span><input name="password" id="signin-password" type="password" autocomplete="current-password" required /></label>
        ${this.error ? html`<p class="alert" role="alert" id="signin-error">${this.error}</p>` : nothing}
        <button class="btn primary" type="submit" id="signin-submit" ?disabled=${this.busy}>Sign in</button>
      </form>
    </main>`;
  }
}

/** ss-signed-in is the top bar's "signed in as ana · sign out" on a team server. */
export class SignedIn extends LightElement {
  #out = async () => {
    try {
      await request('POST', '/api/logout');
    } finally {
      location.reload();
    }
  };

  override render() {
    const me = team.me;
    if (!me) return nothing;
    return html`<span class="signed-in" title="${me.role}: signed in on this team server; the session ends after ${me.idle_minutes} minutes unused"
      >signed in as <b data-me>${me.name}</b> <span class="muted">(${me.role})</span> ·
      <button type="button" class="link-btn" id="sign-out" @click=${this.#out}>sign out</button></span
    >`;
  }
}

customElements.define('ss-sign-in', SignIn);
customElements.define('ss-signed-in', SignedIn);

declare global {
  interface HTMLElementTagNameMap {
    'ss-sign-in': SignIn;
    'ss-signed-in': SignedIn;
  }
}
