// ss-app: the shell — top bar (project, navigation, crawl indicator,
// librarian), hash routing to one view, the librarian prompt, and the
// global "/" shortcut to search.

import { html, nothing } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { api, type CrawlStatus, type Project } from './api';
import { LightElement } from './base';
import { int } from './format';
import { hasModifier, isTyping } from './keys';
import { parseHash, navigate, href, ROUTE_EVENT, type Route } from './router';
import { ACTIVE_STATES, crawlFeed, librarian } from './state';
import './crawl-view';
import './sites-view';
import './site-view';
import './search-view';
import './export-view';
import './communities-view';
import './lab-view';

export class SsApp extends LightElement {
  static override properties = {
    route: { state: true },
    project: { state: true },
    projectError: { state: true },
    librarianName: { state: true },
    librarianInput: { state: true },
    crawl: { state: true },
    prompting: { state: true },
  };

  declare route: Route;
  declare project: Project | null;
  declare projectError: string;
  declare librarianName: string;
  /** librarianInput is the raw text of the name field; the stored name is trimmed. */
  declare librarianInput: string;
  declare crawl: CrawlStatus | null;
  declare prompting: boolean;

  #promptResolve: ((name: string | null) => void) | null = null;
  #lastProjectLoad = 0;
  #projectLoading = false;

  constructor() {
    super();
    this.route = parseHash(location.hash);
    this.project = null;
    this.projectError = '';
    this.librarianName = librarian.name;
    this.librarianInput = librarian.name;
    this.crawl = null;
    this.prompting = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.#onRoute);
    window.addEventListener(ROUTE_EVENT, this.#onRoute);
    window.addEventListener('keydown', this.#onKey);
    document.addEventListener('click', this.#onClick);
    librarian.addEventListener('change', this.#onLibrarian);
    crawlFeed.addEventListener('status', this.#onCrawl);
    librarian.setPrompt(() => this.#askName());
    crawlFeed.start();
    if (!location.hash || location.hash === '#' || location.hash === '#/') navigate('#/sites', true);
    void this.#loadProject();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.#onRoute);
    window.removeEventListener(ROUTE_EVENT, this.#onRoute);
    window.removeEventListener('keydown', this.#onKey);
    document.removeEventListener('click', this.#onClick);
    librarian.removeEventListener('change', this.#onLibrarian);
    crawlFeed.removeEventListener('status', this.#onCrawl);
  }

  #onRoute = () => {
    this.route = parseHash(location.hash);
  };

  #onLibrarian = () => {
    this.librarianName = librarian.name;
    if (this.librarianInput.trim() !== librarian.name) this.librarianInput = librarian.name;
  };

  #onLibrarianInput = (ev: Event) => {
    this.librarianInput = (ev.target as HTMLInputElement).value;
    librarian.set(this.librarianInput);
  };

  #onCrawl = () => {
    const prev = this.crawl;
    this.crawl = crawlFeed.status;
    const active = this.crawl !== null && ACTIVE_STATES.has(this.crawl.state);
    const ended = prev !== null && ACTIVE_STATES.has(prev.state) && !active;
    // The page and site counts in the top bar follow a running crawl, every 5 s at most.
    if (ended || (active && Date.now() - this.#lastProjectLoad > 5000)) void this.#loadProject();
  };

  #onKey = (ev: KeyboardEvent) => {
    if (ev.key !== '/' || hasModifier(ev) || isTyping(ev) || this.prompting) return;
    ev.preventDefault();
    if (this.route.view !== 'search') navigate(href('/search'));
    // The view may only now be created: focus after it rendered.
    requestAnimationFrame(() => this.querySelector('ss-search')?.focusQuery());
  };

  /**
   * onClick sends links meant for a new tab to the system browser when we run
   * in the Wails window, which opens no tabs of its own; Wails injects
   * window.runtime there. In a browser the link behaves as usual.
   */
  #onClick = (ev: MouseEvent) => {
    const rt = (window as unknown as { runtime?: { BrowserOpenURL?: (url: string) => void } }).runtime;
    if (!rt?.BrowserOpenURL || ev.defaultPrevented || ev.button !== 0) return;
    const a = (ev.target as Element | null)?.closest?.('a[target="_blank"]') as HTMLAnchorElement | null;
    if (!a || !/^https?:/.test(a.href)) return;
    ev.preventDefault();
    rt.BrowserOpenURL(a.href);
  };

  async #loadProject(): Promise<void> {
    if (this.#projectLoading) return;
    this.#projectLoading = true;
    this.#lastProjectLoad = Date.now();
    try {
      this.project = await api.project();
      this.projectError = '';
    } catch (err) {
      this.projectError = (err as Error).message;
    } finally {
      this.#projectLoading = false;
    }
  }

  #askName(): Promise<string | null> {
    this.prompting = true;
    return new Promise((resolve) => {
      this.#promptResolve = resolve;
      void this.updateComplete.then(() => this.querySelector<HTMLInputElement>('#prompt-name')?.focus());
    });
  }

  #closePrompt(name: string | null): void {
    this.prompting = false;
    const r = this.#promptResolve;
    this.#promptResolve = null;
    r?.(name);
  }

  /** namesList names the datalist of known librarians, when there are any (an empty one still draws an arrow). */
  #namesList(): string | undefined {
    return this.project?.librarians?.length ? 'librarian-names' : undefined;
  }

  #renderView() {
    const r = this.route;
    switch (r.view) {
      case 'crawl':
        return html`<ss-crawl></ss-crawl>`;
      case 'site':
        return html`<ss-site .site=${r.site} .librarian=${this.librarianName}></ss-site>`;
      case 'search':
        return html`<ss-search .params=${r.params}></ss-search>`;
      case 'export':
        return html`<ss-export .params=${r.params}></ss-export>`;
      case 'communities':
        return html`<ss-communities .params=${r.params}></ss-communities>`;
      case 'lab':
        return html`<ss-lab></ss-lab>`;
      default:
        return html`<ss-sites .params=${r.params} .librarian=${this.librarianName}></ss-sites>`;
    }
  }

  #navItem(label: string, target: string, active: boolean, key: string) {
    return html`<a class="nav-item ${active ? 'active' : ''}" href=${target} aria-current=${active ? 'page' : 'false'}
      data-nav=${key}>${label}</a>`;
  }

  #renderCrawlPill() {
    const c = this.crawl;
    if (!c || !ACTIVE_STATES.has(c.state)) return nothing;
    return html`<a class="crawl-pill state-${c.state}" href="#/crawl" title="Crawl ${c.state}">
      <span class="dot"></span>${c.state} · ${int(c.pages)}${c.max_pages ? html` / ${int(c.max_pages)}` : nothing}
    </a>`;
  }

  #renderPrompt() {
    if (!this.prompting) return nothing;
    const submit = (ev: Event) => {
      ev.preventDefault();
      const v = this.querySelector<HTMLInputElement>('#prompt-name')?.value.trim() ?? '';
      if (v) this.#closePrompt(v);
    };
    return html`<div class="modal-backdrop" @click=${(ev: Event) => ev.target === ev.currentTarget && this.#closePrompt(null)}>
      <form class="modal" role="dialog" aria-modal="true" aria-labelledby="prompt-title" @submit=${submit}
        @keydown=${(ev: KeyboardEvent) => ev.key === 'Escape' && this.#closePrompt(null)}>
        <h2 id="prompt-title">Who is rating?</h2>
        <p class="muted">Ratings are stored under your librarian name. It is kept in this browser for next time.</p>
        <label class="field">
          <span>Librarian name</span>
          <input id="prompt-name" autocomplete="off" list=${ifDefined(this.#namesList())} required />
        </label>
        <div class="actions">
          <button type="button" class="btn" @click=${() => this.#closePrompt(null)}>Cancel</button>
          <button type="submit" class="btn primary">Save and rate</button>
        </div>
      </form>
    </div>`;
  }

  override render() {
    const v = this.route.view;
    const p = this.project;
    return html`
      <header class="topbar">
        <div class="brand">
          <span class="logo" aria-hidden="true"></span>
          <span class="name">sitesift</span>
        </div>
        <nav class="nav" aria-label="Views">
          ${this.#navItem('Crawl', '#/crawl', v === 'crawl', 'crawl')}
          ${this.#navItem('Sites', '#/sites', v === 'sites' || v === 'site', 'sites')}
          ${this.#navItem('Search', '#/search', v === 'search', 'search')}
          ${this.#navItem('Communities', '#/communities', v === 'communities', 'communities')}
          ${this.#navItem('Export', '#/export', v === 'export', 'export')}
          ${this.#navItem('Lab', '#/lab', v === 'lab', 'lab')}
        </nav>
        <div class="project" title=${p?.dir ?? this.projectError}>
          ${p
            ? html`<span class="dir"><bdi dir="ltr">${p.dir}</bdi></span><span class="counts">${int(p.pages)} pages · ${int(p.sites)} sites</span>`
            : this.projectError
              ? html`<span class="error-text">${this.projectError}</span>`
              : html`<span class="muted">loading…</span>`}
        </div>
        ${this.#renderCrawlPill()}
        <label class="librarian ${this.librarianName ? '' : 'empty'}" title="Ratings are saved under this name">
          <span>Librarian</span>
          <input id="librarian" name="librarian" placeholder="your name" autocomplete="off" list=${ifDefined(this.#namesList())}
            .value=${this.librarianInput} @input=${this.#onLibrarianInput} />
        </label>
        <datalist id="librarian-names">
          ${(p?.librarians ?? []).map((n) => html`<option value=${n}></option>`)}
        </datalist>
      </header>
      <main class="main">${this.#renderView()}</main>
      ${this.#renderPrompt()}
    `;
  }
}

customElements.define('ss-app', SsApp);

declare global {
  interface HTMLElementTagNameMap {
    'ss-app': SsApp;
  }
}
