// ss-app: the shell — top bar (project and the Projects page, navigation, crawl indicator,
// librarian chooser), hash routing to one view, the "who is rating?"
// prompt, and the global "/" shortcut to search.

import { html, nothing } from 'lit';
import { api, ApiError, message, type CrawlStatus, type LibrarianProfile, type Project } from './api';
import { LightElement } from './base';
import { fetchedFailed } from './crawl-health';
import { int } from './format';
import { hasModifier, isTyping } from './keys';
import { alertBox } from './loader';
import { parseHash, navigate, href, ROUTE_EVENT, type Route } from './router';
import { projectData } from './project-events';
import { ACTIVE_STATES, crawlFeed, librarian } from './state';
import './crawl-view';
import './sites-view';
import './site-view';
import './search-view';
import './export-view';
import './communities-view';
import './lab-view';
import './librarian-chooser';
import './history-view';
import { isAdmin } from './accounts-view';
import { team } from './team';
import './review-view';
import './selection-view';
import './agreement-view';
import './import-view';
import './projects-view';
import './app.css';

export class SsApp extends LightElement {
  static override properties = {
    route: { state: true },
    project: { state: true },
    projectError: { state: true },
    noProject: { state: true },
    librarianName: { state: true },
    profiles: { state: true },
    crawl: { state: true },
    prompting: { state: true },
    promptError: { state: true },
    promptBusy: { state: true },
    moreOpen: { state: true },
  };

  declare route: Route;
  declare project: Project | null;
  declare projectError: string;
  /** noProject is true when the server has no project open (serve --projects before one is chosen). */
  declare noProject: boolean;
  declare librarianName: string;
  declare profiles: LibrarianProfile[];
  declare crawl: CrawlStatus | null;
  declare prompting: boolean;
  declare promptError: string;
  declare promptBusy: boolean;
  /** moreOpen is whether the navigation's More menu (the pages that are no step of the job: Lab) is open. */
  declare moreOpen: boolean;

  #promptResolve: ((name: string | null) => void) | null = null;
  #lastProjectLoad = 0;
  #projectLoading = false;
  #projectAgain = false;

  constructor() {
    super();
    this.route = parseHash(location.hash);
    this.project = null;
    this.projectError = '';
    this.noProject = false;
    this.librarianName = librarian.name;
    this.profiles = librarian.profiles;
    this.crawl = null;
    this.prompting = false;
    this.promptError = '';
    this.promptBusy = false;
    this.moreOpen = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.#onRoute);
    window.addEventListener(ROUTE_EVENT, this.#onRoute);
    window.addEventListener('keydown', this.#onKey);
    document.addEventListener('click', this.#onClick);
    librarian.addEventListener('change', this.#onLibrarian);
    librarian.addEventListener('profiles', this.#onProfiles);
    crawlFeed.addEventListener('status', this.#onCrawl);
    projectData.addEventListener('change', this.#onProjectData);
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
    librarian.removeEventListener('profiles', this.#onProfiles);
    crawlFeed.removeEventListener('status', this.#onCrawl);
    projectData.removeEventListener('change', this.#onProjectData);
  }

  /** onProjectData reads the counts again after an import; a read already under way is followed by another. */
  #onProjectData = () => {
    if (this.#projectLoading) this.#projectAgain = true;
    else void this.#loadProject();
  };

  #onRoute = () => {
    const prev = this.route;
    this.route = parseHash(location.hash);
    this.moreOpen = false;
    // Another page opens at its top, not where the last one was scrolled to (a sort or a filter keeps its place).
    if (prev.view !== this.route.view || prev.site !== this.route.site) window.scrollTo(0, 0);
  };

  #onLibrarian = () => {
    this.librarianName = librarian.name;
  };

  #onProfiles = () => {
    this.profiles = librarian.profiles;
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
    // The review queue has a search box of its own, which "/" focuses there.
    if (this.route.view === 'review') return;
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
    if (this.moreOpen && !(ev.target as Element | null)?.closest?.('.nav-more')) this.moreOpen = false;
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
      librarian.useProject(this.project.id);
    } catch (err) {
      this.projectError = (err as Error).message;
      // Nothing to show but the projects to open.
      this.noProject = err instanceof ApiError && err.type === 'no_project';
      if (this.noProject) navigate('#/projects', true);
    } finally {
      this.#projectLoading = false;
    }
    if (this.#projectAgain) {
      this.#projectAgain = false;
      void this.#loadProject();
    }
  }

  #askName(): Promise<string | null> {
    this.prompting = true;
    this.promptError = '';
    void librarian.loadProfiles();
    return new Promise((resolve) => {
      this.#promptResolve = resolve;
      void this.updateComplete.then(() => this.querySelector<HTMLInputElement>('#prompt-name')?.focus());
    });
  }

  #closePrompt(name: string | null): void {
    this.prompting = false;
    this.promptBusy = false;
    const r = this.#promptResolve;
    this.#promptResolve = null;
    r?.(name);
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
      case 'import':
        return html`<ss-import></ss-import>`;
      case 'projects':
        return html`<ss-projects></ss-projects>`;
      case 'review':
        return html`<ss-review .params=${r.params} .librarian=${this.librarianName}></ss-review>`;
      case 'selection':
        return html`<ss-selection .params=${r.params}></ss-selection>`;
      case 'history':
        return html`<ss-history .params=${r.params}></ss-history>`;
      case 'accounts':
        return html`<ss-accounts></ss-accounts>`;
      case 'agreement':
        return html`<ss-agreement .params=${r.params} .librarian=${this.librarianName}></ss-agreement>`;
      default:
        return html`<ss-sites .params=${r.params} .librarian=${this.librarianName}></ss-sites>`;
    }
  }

  #navItem(label: string, target: string, active: boolean, key: string) {
    return html`<a class="nav-item ${active ? 'active' : ''}" href=${target} aria-current=${active ? 'page' : 'false'}
      data-nav=${key}>${label}</a>`;
  }

  /**
   * renderMore is the navigation's More menu: Lab is research on the measures
   * and History the record of past decisions, not steps of the job, so they
   * stay out of the main row. A disclosure
   * button and its links, opened by click, Enter, Space or ArrowDown (which
   * focuses the first link) and closed by Escape (focus back on the button),
   * a click elsewhere or a route change; #/lab itself works as before.
   */
  #renderMore(v: Route['view']) {
    const inMore = v === 'lab' || v === 'history';
    // On one of its pages the button reads that page's name alone, no wider
    // than "More" by much: the top bar holds at 1280 px on every page.
    const page = v === 'lab' ? 'Lab' : v === 'history' ? 'History' : '';
    const label = page ? `More: ${page}` : 'More';
    const open = (focusFirst: boolean) => {
      this.moreOpen = true;
      if (focusFirst) void this.updateComplete.then(() => this.querySelector<HTMLElement>('#nav-more-menu a')?.focus());
    };
    const close = () => {
      this.moreOpen = false;
      this.querySelector<HTMLElement>('#nav-more')?.focus();
    };
    return html`<div class="nav-more" @keydown=${(ev: KeyboardEvent) => {
        if (ev.key === 'Escape' && this.moreOpen) {
          ev.preventDefault();
          close();
        }
      }}>
      <button type="button" id="nav-more" class="nav-item ${inMore ? 'active' : ''}" aria-haspopup="true"
        aria-label=${label} title=${label} aria-expanded=${this.moreOpen ? 'true' : 'false'} aria-controls="nav-more-menu"
        @click=${(ev: MouseEvent) => (this.moreOpen ? (this.moreOpen = false) : open(ev.detail === 0))}
        @keydown=${(ev: KeyboardEvent) => {
          if (ev.key === 'ArrowDown') {
            ev.preventDefault();
            open(true);
          }
        }}>${page || 'More'} <span aria-hidden="true">▾</span></button>
      ${this.moreOpen
        ? html`<div class="nav-more-menu" id="nav-more-menu">
            <a class="nav-more-item ${v === 'lab' ? 'active' : ''}" href="#/lab" data-nav="lab" aria-current=${v === 'lab' ? 'page' : 'false'}>
              <strong>Lab</strong><span class="muted small">Research: how OPIC, PageRank and HITS behave on this crawl</span></a>
            <a class="nav-more-item ${v === 'history' ? 'active' : ''}" href="#/history" data-nav="history" aria-current=${v === 'history' ? 'page' : 'false'}>
              <strong>History</strong><span class="muted small">Every rating and decision: who, when, what changed</span></a>
            ${isAdmin()
              ? html`<a class="nav-more-item ${v === 'accounts' ? 'active' : ''}" href="#/accounts" data-nav="accounts"
                  aria-current=${v === 'accounts' ? 'page' : 'false'}>
                  <strong>Accounts</strong><span class="muted small">Who signs in, with which role; new sign-in links</span></a>`
              : nothing}
          </div>`
        : nothing}
    </div>`;
  }

  #renderCrawlPill() {
    const c = this.crawl;
    if (!c || !ACTIVE_STATES.has(c.state)) return nothing;
    // Short, so that the top bar keeps the project's counts whole beside it: the whole sentence is its title.
    const failed = c.errors ? html` · ${int(c.errors)} failed` : nothing;
    return html`<a class="crawl-pill state-${c.state}" href="#/crawl" title="Crawl ${c.state}: ${fetchedFailed(c)}">
      <span class="dot"></span><span class="pill-text">${c.state} · <span data-pill-count>${int(c.pages_ok ?? c.pages)} fetched${failed}</span></span>
    </a>`;
  }

  #renderPrompt() {
    if (!this.prompting) return nothing;
    const submit = async (ev: Event) => {
      ev.preventDefault();
      const v = this.querySelector<HTMLInputElement>('#prompt-name')?.value.trim() ?? '';
      if (!v || this.promptBusy) return;
      const known = librarian.profile(v);
      if (known) {
        this.#closePrompt(known.name);
        return;
      }
      // A new profile: the server checks the name (length, control characters) before we use it.
      this.promptBusy = true;
      try {
        this.#closePrompt(await librarian.add(v));
      } catch (err) {
        this.promptBusy = false;
        this.promptError = message(err);
      }
    };
    const profiles = this.profiles;
    return html`<div class="modal-backdrop" @click=${(ev: Event) => ev.target === ev.currentTarget && this.#closePrompt(null)}>
      <form class="modal" role="dialog" aria-modal="true" aria-labelledby="prompt-title" @submit=${submit}
        @keydown=${(ev: KeyboardEvent) => ev.key === 'Escape' && this.#closePrompt(null)}>
        <h2 id="prompt-title">Who are you?</h2>
        <p class="muted">Ratings, notes, selection decisions and saved collections are stored under your librarian name. This browser
          keeps it for this project.</p>
        ${profiles.length
          ? html`<div class="profile-list" role="group" aria-label="Librarians of this project">
              ${profiles.map(
                (p) => html`<button type="button" class="btn profile-btn" data-librarian=${p.name} @click=${() => this.#closePrompt(p.name)}>
                  <span class="who">${p.name}</span><span class="muted">${int(p.ratings)} rated</span>
                </button>`,
              )}
            </div>`
          : nothing}
        <label class="field">
          <span>${profiles.length ? 'Or a new librarian' : 'Librarian name'}</span>
          <input id="prompt-name" autocomplete="off" spellcheck="false" required
            @input=${() => (this.promptError = '')} />
        </label>
        ${alertBox(this.promptError)}
        <div class="actions">
          <button type="button" class="btn" @click=${() => this.#closePrompt(null)}>Cancel</button>
          <button type="submit" class="btn primary" id="prompt-add" ?disabled=${this.promptBusy}>Add librarian and continue</button>
        </div>
      </form>
    </div>`;
  }

  override render() {
    const v = this.route.view;
    const p = this.project;
    return html`
      <header class="topbar ${this.crawl && ACTIVE_STATES.has(this.crawl.state) ? 'crawling' : ''}">
        <div class="brand">
          <span class="logo" aria-hidden="true"></span>
          <span class="name">sitesift</span>
        </div>
        <nav class="nav" aria-label="Views">
          ${this.#navItem('Crawl', '#/crawl', v === 'crawl', 'crawl')}
          ${this.#navItem('Sites', '#/sites', v === 'sites' || v === 'site', 'sites')}
          ${this.#navItem('Review', '#/review', v === 'review', 'review')}
          ${this.#navItem('Search', '#/search', v === 'search', 'search')}
          ${this.#navItem('Communities', '#/communities', v === 'communities', 'communities')}
          ${this.#navItem('Selection', '#/selection', v === 'selection', 'selection')}
          ${this.#navItem('Agreement', '#/agreement', v === 'agreement', 'agreement')}
          ${this.#navItem('Export', '#/export', v === 'export', 'export')}
          ${this.#navItem('Import', '#/import', v === 'import', 'import')}
          ${this.#renderMore(v)}
        </nav>
        <a class="project ${v === 'projects' ? 'active' : ''}" href="#/projects" data-nav="projects"
          title=${`${p ? `${p.dir} — ` : this.projectError ? `${this.projectError} — ` : ''}Projects: new, open, recent`}>
          <span class="switch" data-project-name=${p?.name ?? ''}><span class="pname">${p ? p.name : 'Projects'}</span><span aria-hidden="true">▾</span></span>
          ${p
            ? nothing
            : this.noProject
              ? html`<span class="muted">no project open</span>`
              : this.projectError
                ? html`<span class="error-text">${this.projectError}</span>`
                : html`<span class="muted">loading…</span>`}
        </a>
        ${p ? html`<span class="counts" title=${p.dir}>${int(p.pages)} pages · ${int(p.sites)} sites</span>` : nothing}
        ${this.#renderCrawlPill()}
        ${team.me ? html`<ss-signed-in></ss-signed-in>` : html`<ss-librarian></ss-librarian>`}
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
