// ss-projects: the Projects page — the open project, and the others to open
// in its place. In the desktop window: New project… and Open project…
// through the native dialogs, and this user's recent projects (a folder
// gone shown as missing). Under `sitesift serve --projects DIR`: the
// projects of DIR, and a new one created there by name. A crawl or an
// import running refuses the switch, and the page says so in the server's
// words. After a switch the page loads again from the start on the new
// project: every view, the librarian and the job feed belong to a project.

import { html, nothing } from 'lit';
import { ApiError, message, request, type Answer } from './api';
import { LightElement } from './base';
import { inDesktopWindow } from './download';
import { alertBox, spinner } from './loader';
import './projects-view.css';

/** ProjectsState is GET /api/projects: the open project, the recent ones and those of the projects folder. */
export type ProjectsState = Answer<'GET /api/projects'>;
type Opened = Answer<'POST /api/projects/open'>;

export const projectsApi = {
  state: (signal?: AbortSignal) => request<ProjectsState>('GET', '/api/projects', undefined, signal),
  open: (body: { name?: string; dir?: string }) => request<Opened>('POST', '/api/projects/open', body),
  create: (body: { name?: string; dir?: string }) => request<Opened>('POST', '/api/projects/create', body),
  // An empty JSON body: the window sends a POST without one with no length
  // and no type, which the guard refuses (415).
  openDialog: () => request<Opened>('POST', '/api/projects/open-dialog', {}),
  newDialog: () => request<Opened>('POST', '/api/projects/new-dialog', {}),
};

/** reopen loads the app again on the project just opened, at view (the Crawl page for a new, empty project). */
function reopen(view: string): void {
  location.hash = view;
  location.reload();
}

export class SsProjects extends LightElement {
  static override properties = {
    state: { state: true },
    error: { state: true },
    unavailable: { state: true },
    busy: { state: true },
    name: { state: true },
  };

  declare state: ProjectsState | null;
  declare error: string;
  declare unavailable: boolean;
  declare busy: boolean;
  declare name: string;

  #abort: AbortController | null = null;

  constructor() {
    super();
    this.state = null;
    this.error = '';
    this.unavailable = false;
    this.busy = false;
    this.name = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
  }

  async #load(): Promise<void> {
    this.#abort?.abort();
    const ac = (this.#abort = new AbortController());
    try {
      this.state = await projectsApi.state(ac.signal);
    } catch (err) {
      if (ac.signal.aborted) return;
      // `sitesift serve` without --projects serves its one project: no route.
      if (err instanceof ApiError && err.status === 404) this.unavailable = true;
      else this.error = message(err);
    }
  }

  /** run switches projects through f, then loads the app on the project opened at view. */
  async #run(f: () => Promise<Opened>, view: string): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.error = '';
    try {
      const res = await f();
      if (res.cancelled) return;
      reopen(view);
    } catch (err) {
      this.error = message(err);
    } finally {
      this.busy = false;
    }
  }

  #renderDesktop(st: ProjectsState) {
    const recent = st.recent ?? [];
    return html`<section class="panel projects-actions">
        <h3>Projects</h3>
        <div class="actions">
          <button class="btn primary" id="project-new" ?disabled=${this.busy} @click=${() => this.#run(projectsApi.newDialog, '#/crawl')}>
            New project…</button>
          <button class="btn" id="project-open" ?disabled=${this.busy} @click=${() => this.#run(projectsApi.openDialog, '#/sites')}>
            Open project…</button>
          ${spinner(this.busy, 'Opening')}
        </div>
        <p class="muted">New project… asks for a new folder's name; Open project… for the folder of a project. The project open now is
          closed first; a crawl, an import or a lab experiment running in it must be stopped before.</p>
      </section>
      <section class="panel">
        <h3>Recent projects</h3>
        ${st.recent_error ? html`<p class="error-text" role="status">${st.recent_error}</p>` : nothing}
        ${recent.length
          ? html`<ul class="project-list" id="recent-projects">
              ${recent.map((e) => this.#entry(e, () => projectsApi.open({ dir: e.dir }), st.current === e.dir))}
            </ul>`
          : html`<p class="muted">No project opened yet.</p>`}
      </section>`;
  }

  #renderFolder(st: ProjectsState) {
    const list = st.projects ?? [];
    const create = (ev: Event) => {
      ev.preventDefault();
      const name = this.name.trim();
      if (name) void this.#run(() => projectsApi.create({ name }), '#/crawl');
    };
    return html`<section class="panel">
        <h3>New project</h3>
        <form class="project-new" @submit=${create}>
          <label class="field">
            <span>Name (a folder of <bdi dir="ltr">${st.folder}</bdi>)</span>
            <input id="project-name" autocomplete="off" spellcheck="false" required .value=${this.name}
              @input=${(ev: Event) => (this.name = (ev.target as HTMLInputElement).value)} />
          </label>
          <button class="btn primary" type="submit" id="project-create" ?disabled=${this.busy}>Create and open</button>
          ${spinner(this.busy, 'Opening')}
        </form>
      </section>
      <section class="panel">
        <h3>Projects in <bdi dir="ltr">${st.folder}</bdi></h3>
        ${list.length
          ? html`<ul class="project-list" id="folder-projects">
              ${list.map((e) => this.#entry(e, () => projectsApi.open({ name: e.name }), st.current === e.dir))}
            </ul>`
          : html`<p class="muted">No project here yet: create one above.</p>`}
      </section>`;
  }

  #entry(e: NonNullable<ProjectsState['projects']>[number], open: () => Promise<Opened>, current: boolean) {
    return html`<li class="project-entry ${e.missing ? 'missing' : ''}" data-project=${e.name}>
      <span class="pname">${e.name}</span>
      <span class="pdir muted"><bdi dir="ltr">${e.dir}</bdi></span>
      ${current
        ? html`<span class="badge">open</span>`
        : e.missing
          ? html`<span class="badge missing">missing</span>`
          : html`<button class="btn small-btn" ?disabled=${this.busy} @click=${() => this.#run(open, '#/sites')}>Open</button>`}
    </li>`;
  }

  override render() {
    const st = this.state;
    return html`<div class="projects-layout">
      <header>
        <h2>Projects</h2>
        ${this.unavailable ? nothing : html`<p class="muted">${st?.current ? html`Open: <code>${st.current}</code>` : st ? 'No project is open.' : ''}</p>`}
      </header>
      ${alertBox(this.error)}
      ${this.unavailable
        ? html`<p class="muted" id="projects-unavailable">${inDesktopWindow()
            ? html`This window serves its one project (the demo). Start <code>sitesift</code> without <code>demo</code> to create and
                open projects from this page.`
            : html`This sitesift serves one project. Start it with <code>sitesift serve --projects DIR</code> to list, open and
                create the projects of a folder from this page, or use the desktop app.`}</p>`
        : !st
          ? spinner(!this.error)
          : st.by_path
            ? this.#renderDesktop(st)
            : this.#renderFolder(st)}
    </div>`;
  }
}

customElements.define('ss-projects', SsProjects);

declare global {
  interface HTMLElementTagNameMap {
    'ss-projects': SsProjects;
  }
}
