// ss-crawl: start a crawl and follow it live — progress, rate, queue,
// errors and the most important sites so far — with pause, resume, stop;
// the project's crawl settings, what a new crawl would continue, and the
// failed fetches of the last crawl.

import { html, nothing } from 'lit';
import { api, ApiError, message, type ArchiveImport, type Continuation, type CrawlRequest, type CrawlStatus, type Project, type RecrawlReport, type Strategy } from './api';
import { LightElement } from './base';
import { droppedEntries, endReasonLine, errorEntries, errorsByClass, fetchedFailed, leftOut } from './crawl-health';
import './crawl-errors';
import './recrawl-window';
import { DEFAULT_SCOPE, expressionFieldOf, isScope, scopeGroup, scopeRequest, type ExprField, type ScopeForm } from './crawl-scope';
import { isContactMessage } from './crawl-settings';
import { alertBox, Loader } from './loader';
import { date, duration, int, relative, share, sig } from './format';
import { EXPLAIN, rawShares } from './explainer';
import { PLATFORM_NOTE } from './platforms';
import { href, siteHref } from './router';
import { ACTIVE_STATES, crawlFeed, type FeedMode } from './state';
import './crawl-platforms';
import './crawl-view.css';

const FORM_KEY = 'sitesift.crawlForm';

/**
 * CrawlForm is what one crawl asks for. How politely it fetches (delay,
 * parallel sites) is the project's crawl settings, not the form's: a crawl
 * request that carried its own would overwrite them.
 */
interface CrawlForm extends ScopeForm {
  seeds: string;
  max_pages: string;
  max_failures: string;
  max_pages_per_site: string;
  strategy: Strategy;
  follow: Follow;
  proxy: string;
  bias: string;
}

const DEFAULT_FORM: CrawlForm = {
  seeds: '',
  max_pages: '500',
  max_failures: '',
  max_pages_per_site: '50',
  strategy: 'greedy',
  follow: 'editorial',
  proxy: '',
  bias: '0',
  ...DEFAULT_SCOPE,
};

const STRATEGIES: { value: Strategy; label: string }[] = [
  { value: 'greedy', label: 'Greedy — most cash first' },
  { value: 'random', label: 'Random — any known page' },
  { value: 'cycle', label: 'Cycle — each page in turn' },
];

/** Follow is which links a crawl follows to other sites (CrawlRequest.follow). */
type Follow = 'editorial' | 'all';

const FOLLOWS: { value: Follow; label: string }[] = [
  { value: 'editorial', label: "Editorial — links in the pages' text; the template's only within its site" },
  { value: 'all', label: 'All — footers, navigation and sign-in boxes too' },
];

function loadForm(): CrawlForm {
  try {
    const saved = (JSON.parse(localStorage.getItem(FORM_KEY) ?? 'null') ?? {}) as Record<string, unknown>;
    // Only the form's own fields: a form saved by an older version also held delay and parallel.
    const form = { ...DEFAULT_FORM };
    for (const k of Object.keys(DEFAULT_FORM) as (keyof CrawlForm)[]) {
      if (typeof saved[k] === 'string') (form as Record<string, string>)[k] = saved[k];
    }
    if (!isScope(form.scope)) form.scope = DEFAULT_FORM.scope;
    if (!FOLLOWS.some((f) => f.value === form.follow)) form.follow = DEFAULT_FORM.follow;
    return form;
  } catch {
    return { ...DEFAULT_FORM };
  }
}

/** seedList reads the textarea: one URL a line; blank lines and "#" comments are skipped. */
export function seedList(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

export class CrawlView extends LightElement {
  static override properties = {
    form: { state: true },
    status: { state: true },
    mode: { state: true },
    startError: { state: true },
    controlError: { state: true },
    busy: { state: true },
    fresh: { state: true },
    exprErrors: { state: true },
  };

  declare form: CrawlForm;
  declare status: CrawlStatus | null;
  declare mode: FeedMode;
  declare startError: string;
  declare controlError: string;
  declare busy: boolean;
  /** fresh asks for a fresh frontier: the new seeds only, keeping what was fetched. */
  declare fresh: boolean;
  /** exprErrors are refusals of an include or exclude expression, shown at its field. */
  declare exprErrors: Partial<Record<ExprField, string>>;

  /** continuation is what a crawl started now would continue; null from a server that does not say. */
  #continuation = new Loader<Continuation | null>(this);
  /** project holds the project's counts and imports, for a project that has sites but no crawl. */
  #project = new Loader<Project>(this);

  constructor() {
    super();
    this.form = loadForm();
    this.status = crawlFeed.status;
    this.mode = crawlFeed.mode;
    this.startError = '';
    this.controlError = '';
    this.busy = false;
    this.fresh = false;
    this.exprErrors = {};
  }

  override connectedCallback(): void {
    super.connectedCallback();
    crawlFeed.addEventListener('status', this.#onStatus);
    rawShares.addEventListener('change', this.#onRaw);
    void this.#loadContinuation();
    void this.#project.run((signal) => api.project(signal), { silent: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    crawlFeed.removeEventListener('status', this.#onStatus);
    rawShares.removeEventListener('change', this.#onRaw);
  }

  #onRaw = () => this.requestUpdate();

  #onStatus = () => {
    const was = this.status;
    this.status = crawlFeed.status;
    this.mode = crawlFeed.mode;
    // A crawl that ended changed what the next one would continue.
    if (was && ACTIVE_STATES.has(was.state) && this.status && !ACTIVE_STATES.has(this.status.state)) {
      void this.#loadContinuation();
      void this.#project.run((signal) => api.project(signal), { silent: true });
      void this.querySelector('ss-crawl-settings')?.reload();
    }
  };

  async #loadContinuation(): Promise<void> {
    await this.#continuation.run(async (signal) => {
      try {
        return await api.continuation(signal);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null; // an older server
        throw err;
      }
    }, { silent: true });
  }

  #field(name: keyof CrawlForm) {
    return (ev: Event) => {
      const v = (ev.target as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value;
      this.form = { ...this.form, [name]: v };
      if (name === 'include' || name === 'exclude') this.exprErrors = { ...this.exprErrors, [name]: undefined };
      try {
        localStorage.setItem(FORM_KEY, JSON.stringify(this.form));
      } catch {
        /* not fatal: the form just starts empty next time */
      }
    };
  }

  #request(): CrawlRequest | string {
    const f = this.form;
    const seeds = seedList(f.seeds);
    if (seeds.length === 0) return 'Enter at least one seed URL.';
    const req: CrawlRequest = { seeds, strategy: f.strategy, follow: f.follow };
    const nums: [keyof CrawlForm & keyof CrawlRequest, string, number][] = [
      ['max_pages', 'Max pages', 1],
      ['max_failures', 'Max failures', 1],
      ['max_pages_per_site', 'Max pages per site', 1],
    ];
    for (const [key, label, min] of nums) {
      const raw = String(f[key]).trim();
      if (raw === '') continue; // the server's default
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min) return `${label} must be a whole number ≥ ${min}.`;
      (req as unknown as Record<string, number>)[key] = n;
    }
    if (f.proxy.trim()) req.proxy = f.proxy.trim();
    const bias = Number(String(f.bias ?? '').trim() || '0');
    if (!Number.isFinite(bias) || bias < 0) return 'Bias must be a number ≥ 0.';
    if (bias > 0) req.bias = bias;
    if (this.fresh && this.#continuation.value?.continues) req.fresh_frontier = true;
    const scope = scopeRequest(f);
    if (typeof scope === 'string') return scope;
    Object.assign(req, scope);
    // Settings changed and not saved go with the crawl, which keeps them; the others stay as stored.
    const changes = this.querySelector('ss-crawl-settings')?.changes() ?? {};
    if (typeof changes === 'string') return `Crawl settings: ${changes}`;
    return { ...changes, ...req };
  }

  #onStart = async (ev: Event) => {
    ev.preventDefault();
    const req = this.#request();
    if (typeof req === 'string') {
      this.startError = req;
      return;
    }
    this.busy = true;
    const settings = this.querySelector('ss-crawl-settings');
    try {
      crawlFeed.update(await api.startCrawl(req));
      this.startError = '';
      this.controlError = '';
      this.fresh = false;
      this.exprErrors = {};
      void settings?.reload();
      // The form is long and the counters are under it: show them moving, or the click seems to do nothing.
      void this.updateComplete.then(() => this.querySelector('.status-panel')?.scrollIntoView({ block: 'nearest' }));
    } catch (err) {
      const msg = message(err);
      const bad = err instanceof ApiError && err.status === 400;
      const expr = bad ? expressionFieldOf(msg, this.form) : null;
      this.exprErrors = expr ? { [expr]: msg } : {};
      if (expr) {
        // A bad include or exclude expression: say so at its field.
        this.startError = '';
        void this.updateComplete.then(() => this.querySelector<HTMLTextAreaElement>(`#crawl-${expr}`)?.focus());
      } else if (bad && isContactMessage(msg) && settings) {
        // The crawl of the open web needs a contact: say so where it is set.
        settings.showContactError(msg);
        this.startError = 'This crawl needs a contact: set one in the crawl settings.';
      } else {
        this.startError = msg;
      }
    } finally {
      this.busy = false;
    }
  };

  async #control(fn: () => Promise<CrawlStatus>): Promise<void> {
    this.busy = true;
    try {
      crawlFeed.update(await fn());
      this.controlError = '';
    } catch (err) {
      this.controlError = message(err);
    } finally {
      this.busy = false;
    }
  }

  #renderForm(active: boolean) {
    const f = this.form;
    return html`<form class="panel form crawl-form" @submit=${this.#onStart} novalidate>
      <h2>New crawl</h2>
      <label class="field">
        <span>Seed URLs <span class="muted">(one a line)</span></span>
        <textarea id="crawl-seeds" rows="6" spellcheck="false" placeholder="https://www.example.org/&#10;https://library.example.net/"
          .value=${f.seeds} @input=${this.#field('seeds')}></textarea>
      </label>
      <div class="field-row">
        <label class="field">
          <span>Max pages</span>
          <input id="crawl-max-pages" type="number" min="1" .value=${f.max_pages} @input=${this.#field('max_pages')} />
        </label>
        <label class="field" title="Failed fetches and error answers that end the crawl; empty: as many as max pages">
          <span>Max failures</span>
          <input id="crawl-max-failures" type="number" min="1" placeholder=${f.max_pages || '500'} .value=${f.max_failures}
            @input=${this.#field('max_failures')} />
        </label>
        <label class="field">
          <span>Max per site</span>
          <input id="crawl-max-per-site" type="number" min="1" .value=${f.max_pages_per_site} @input=${this.#field('max_pages_per_site')} />
        </label>
      </div>
      <label class="field">
        <span>Strategy</span>
        <select id="crawl-strategy" .value=${f.strategy} @change=${this.#field('strategy')}>
          ${STRATEGIES.map((s) => html`<option value=${s.value} ?selected=${s.value === f.strategy}>${s.label}</option>`)}
        </select>
      </label>
      <label class="field"
        title="The template's links to other sites (a footer's shop, careers and share services, sign-in and newsletter boxes) are not the web you asked about, and they fail more than any: by default the crawl follows only the links the pages' authors wrote to other sites">
        <span>Follow links to other sites</span>
        <select id="crawl-follow" .value=${f.follow} @change=${this.#field('follow')}>
          ${FOLLOWS.map((o) => html`<option value=${o.value} ?selected=${o.value === f.follow}>${o.label}</option>`)}
        </select>
      </label>
      ${scopeGroup(f, (name) => this.#field(name), this.exprErrors)}
      <label class="field">
        <span>Proxy <span class="muted">(optional)</span></span>
        <input id="crawl-proxy" type="text" spellcheck="false" placeholder="empty = from the environment"
          .value=${f.proxy} @input=${this.#field('proxy')} />
      </label>
      <label class="field">
        <span>Bias towards rated sites <span class="muted">(0 = none)</span></span>
        <input id="crawl-bias" type="number" min="0" step="any" .value=${f.bias ?? '0'} @input=${this.#field('bias')}
          title="Sites librarians rated 3–4 on average get 1 + bias times the teleport cash: the crawl favours them and their neighbourhood" />
      </label>
      ${active ? nothing : this.#renderContinuation()}
      ${alertBox(this.startError)}
      <div class="actions">
        <button type="submit" class="btn primary" id="crawl-start" ?disabled=${active || this.busy}>Start crawl</button>
        ${active ? html`<span class="muted small">A crawl is ${this.status?.state}.</span>` : nothing}
      </div>
    </form>`;
  }

  /** renderContinuation says what the next crawl goes on from, with the choice of a fresh frontier. */
  #renderContinuation() {
    const c = this.#continuation.value;
    if (!c?.continues) return nothing;
    const when = c.last_crawl ? date(c.last_crawl) : 'the last crawl';
    return html`<div class="continuation" id="crawl-continuation">
      <p>This crawl continues the crawl of <strong>${when}</strong>: <span data-pages>${int(c.pages ?? 0)}</span> pages fetched,
        <span data-waiting>${int(c.waiting ?? 0)}</span> waiting.</p>
      <label class="check" title="Start from the seeds above only: the waiting links are left aside, the pages fetched are kept and not fetched again">
        <input id="crawl-fresh-frontier" type="checkbox" .checked=${this.fresh}
          @change=${(ev: Event) => (this.fresh = (ev.target as HTMLInputElement).checked)} />
        <span>Fresh frontier <span class="muted">— only the new seeds, keeping what was fetched</span></span>
      </label>
    </div>`;
  }

  /** renderImported says what a project made by an import holds: its counts, when and from which file. */
  #renderImported() {
    const p = this.#project.value;
    const imports = p?.imports ?? [];
    if (p && imports.length === 0 && (p.archive_imports?.length ?? 0) > 0) return renderArchiveImports(p, p.archive_imports!);
    if (!p || imports.length === 0) return nothing;
    const last = imports[imports.length - 1]!;
    const file = last.file.split(/[\\/]/).pop() || last.file;
    return html`<div class="imported" id="crawl-imported">
      <p><strong>Imported site graph</strong> — no crawl: this project's sites and links come from
        <code title=${last.file}>${file}</code>, imported ${date(last.imported_at)}${imports.length > 1 ? html` (the last of ${imports.length} imports)` : nothing}.</p>
      <dl class="metrics">
        <div><dt>Sites</dt><dd data-imported-sites>${int(p.sites)}</dd></div>
        <div title="Distinct linked site pairs of the file, repeats merged"><dt>Links</dt><dd data-imported-links>${int(last.edges)}</dd></div>
        ${last.self_edges ? html`<div title="Lines linking a site to itself, left out"><dt>Self-links dropped</dt><dd>${int(last.self_edges)}</dd></div>` : nothing}
        <div><dt>Pages</dt><dd data-imported-pages>${int(p.pages)}</dd></div>
      </dl>
    </div>`;
  }

  #renderTop(s: CrawlStatus) {
    const top = s.top ?? [];
    if (top.length === 0) {
      const p = this.#project.value;
      if (p && p.sites > 0) {
        return html`<p class="empty">${int(p.sites)} sites, none from a crawl yet: <a href="#/sites">see them by importance</a>.</p>`;
      }
      return html`<p class="empty">No sites yet.</p>${topPlatformsLine(s.top_platforms ?? 0)}`;
    }
    const max = Math.max(...top.map((t) => t.opic)) || 1;
    return html`<ol class="top-list" data-top>
      ${top.map(
        (t, i) => html`<li data-site=${t.site}>
          <span class="rank">${i + 1}</span>
          <a class="site" href=${siteHref(t.site)} title=${t.site}>${t.site}</a>
          <span class="bar-track"><span class="bar" style="width:${Math.max(1, (t.opic / max) * 100).toFixed(1)}%"></span></span>
          <span class="v num" data-score=${relative(t.opic, max)}>${relative(t.opic, max)}${rawShares.on ? html` <span class="raw-share">${share(t.opic)}</span>` : nothing}</span>
        </li>`,
      )}
    </ol>${topPlatformsLine(s.top_platforms ?? 0)}`;
  }

  #renderStatus() {
    const s = this.status;
    if (!s) {
      return html`<section class="panel status-panel"><h2>Status</h2><p class="empty">Connecting…</p></section>`;
    }
    const running = s.state === 'running';
    const paused = s.state === 'paused';
    // The page cap counts the pages fetched fine; failures have a cap of their own.
    const fine = s.pages_ok ?? s.pages;
    const frac = s.max_pages > 0 ? Math.min(1, fine / s.max_pages) : 0;
    // An imported project never crawled: its counts are the import's, the crawl's zeros are hidden (crawl-view.css).
    const p = this.#project.value;
    const imported = s.state === 'idle' && !s.end_reason && ((p?.imports?.length ?? 0) > 0 || (p?.archive_imports?.length ?? 0) > 0);
    return html`<section class="panel status-panel" data-state=${s.state} ?data-imported=${imported}>
      <h2>
        Status <span class="badge state-${imported ? 'imported' : s.state}" id="crawl-state"
          title=${imported ? 'No crawl ran in this project: what it holds was imported' : s.state}>${imported ? 'imported' : s.state}</span>
        ${s.strategy ? html`<span class="muted small">${s.strategy}</span>` : nothing}
        <span class="spacer"></span>
        <span class="feed-mode ${this.mode}" title=${this.mode === 'live' ? 'Live updates (server-sent events)' : 'Polling once a second'}>${this.mode}</span>
      </h2>
      ${ACTIVE_STATES.has(s.state) ? nothing : endReasonLine(s.end_reason)}
      ${s.state === 'idle' ? this.#renderImported() : nothing}
      <div class="progress-wrap">
        <div class="progress" role="progressbar" aria-valuemin="0" aria-valuemax=${s.max_pages} aria-valuenow=${fine}
          aria-label="Pages fetched fine">
          <div class="progress-fill ${running ? 'moving' : ''}" style="width:${(frac * 100).toFixed(1)}%"></div>
        </div>
        <span class="progress-label" id="crawl-progress-label">${fetchedFailed(s)}${s.max_pages > 0
          ? html` <span class="muted">(caps ${int(s.max_pages)} pages${s.max_failures ? html`, ${int(s.max_failures)} failures` : nothing})</span>`
          : nothing}</span>
      </div>
      <dl class="metrics">
        ${s.pages_ok === undefined
          ? nothing
          : html`<div title="Pages fetched fine, which the project keeps and the page cap counts">
              <dt>Fetched fine</dt><dd id="crawl-pages-ok">${int(s.pages_ok)}</dd></div>`}
        <div><dt>Pages/s</dt><dd>${s.pages_per_sec.toFixed(1)}</dd></div>
        <div><dt>Sites</dt><dd>${int(s.sites)}</dd></div>
        <div><dt>Queue</dt><dd>${int(s.queue)}</dd></div>
        <div class=${s.errors ? 'has-errors' : ''}><dt>Errors</dt><dd>${int(s.errors)}</dd></div>
        ${s.retries === undefined
          ? nothing
          : html`<div title="Fetches tried again after a timeout, a connection failure, a 5xx or a 429 (at most 3 times each)">
              <dt>Retries</dt><dd id="crawl-retries">${int(s.retries)}</dd></div>`}
        <div title="Links dropped: no valid host or port, longer than 4,096 bytes, or beyond 10,000 on a page">
          <dt>Bad links</dt><dd>${int(s.bad_links ?? 0)}</dd></div>
        <div title="URLs on loopback, private or link-local addresses, not fetched">
          <dt>Refused</dt><dd>${int(s.refused ?? 0)}</dd></div>
        <div><dt>Elapsed</dt><dd>${duration(s.elapsed_sec)}</dd></div>
      </dl>
      ${errorEntries(s.errors_by_class).length
        ? html`<p class="errors-line" id="crawl-errors-by-class"><span class="k">Errors by class</span> ${errorsByClass(s.errors_by_class)}</p>`
        : nothing}
      ${droppedEntries(s.dropped).length
        ? html`<p class="errors-line" id="crawl-dropped"><strong>Left out:</strong> ${leftOut(s.dropped)}</p>`
        : nothing}
      ${s.template_links_left_out
        ? html`<p class="errors-line" id="crawl-template-left-out"
            title="Links of the pages' template (footers, navigation, sign-in and newsletter boxes) to other sites: known to the site graph, not fetched. A crawl that follows all links fetches them.">
            <strong>Not followed:</strong> ${int(s.template_links_left_out)} template ${s.template_links_left_out === 1 ? 'link' : 'links'}
            to ${int(s.template_sites_left_out)} ${s.template_sites_left_out === 1 ? 'site' : 'sites'}
            <span class="muted">(footers, navigation, sign-in and newsletter boxes)</span></p>`
        : nothing}
      <ss-crawl-platforms></ss-crawl-platforms>
      ${s.truncated
        ? html`<p class="errors-line" id="crawl-truncated"
            title="Pages whose body was cut at the 10 MiB cap: kept as far as they were fetched"><strong>Truncated:</strong> ${int(s.truncated)}</p>`
        : nothing}
      ${s.last_error
        ? html`<div class="last-error" title=${s.last_error}><span class="k">Last error</span> <code>${s.last_error}</code></div>`
        : nothing}
      <div class="actions">
        ${paused
          ? html`<button type="button" class="btn primary" id="crawl-resume" ?disabled=${this.busy}
              @click=${() => this.#control(api.resumeCrawl)}>Resume</button>`
          : html`<button type="button" class="btn" id="crawl-pause" ?disabled=${!running || this.busy}
              @click=${() => this.#control(api.pauseCrawl)}>Pause</button>`}
        <button type="button" class="btn danger" id="crawl-stop" ?disabled=${!(running || paused) || this.busy}
          @click=${() => this.#control(api.stopCrawl)}>Stop</button>
        <button type="button" class="btn" id="crawl-recrawl" ?disabled=${running || paused || this.busy}
          title=${imported
            ? 'Fetch the imported pages again from the live web, most important sites first: changed pages are updated, gone ones marked, and the importance follows the web as it is now'
            : "Revisit the project's pages, most important sites first: changed pages are updated, gone ones marked, and the importance follows the web as it is now (a stopped recrawl is continued)"}
          @click=${() => this.#control(() => api.startRecrawl(this.form.proxy.trim() ? { proxy: this.form.proxy.trim() } : {}))}>Recrawl</button>
      </div>
      <ss-recrawl-window></ss-recrawl-window>
      ${s.recrawl ? recrawlLine(s.recrawl) : nothing}
      ${alertBox(this.controlError)}
      <h3>Top sites by importance <span class="muted small">(OPIC, top = 100)</span></h3>
      <ss-explainer raw .text=${EXPLAIN.importance}></ss-explainer>
      ${this.#renderTop(s)}
    </section>`;
  }

  override render() {
    const active = this.status !== null && ACTIVE_STATES.has(this.status.state);
    return html`
      <div class="toolbar"><h1>Crawl</h1></div>
      <div class="crawl-layout">
        <div class="crawl-side">${this.#renderForm(active)}<ss-crawl-settings></ss-crawl-settings></div>
        ${this.#renderStatus()}
      </div>
      <ss-crawl-errors .status=${this.status}></ss-crawl-errors>
    `;
  }
}

customElements.define('ss-crawl', CrawlView);

/** WARCWritten is the part of a WARC or ARC file's import summary that says what it wrote. */
interface WARCWritten {
  pages_written?: number;
  written_pages?: number;
  written_redirects?: number;
  written_error_captures?: number;
  records?: number;
}

/** archiveCounts says what one imported archive file added: a WARC's pages by kind, else its records. */
function archiveCounts(a: ArchiveImport) {
  const w = (a.summary && typeof a.summary === 'object' ? a.summary : {}) as WARCWritten;
  if (w.written_pages !== undefined) {
    return html`<span data-archive-pages>${int(w.written_pages)}</span> pages,
      ${int(w.written_redirects ?? 0)} redirects, ${int(w.written_error_captures ?? 0)} error captures`;
  }
  if (w.pages_written !== undefined) return html`<span data-archive-pages>${int(w.pages_written)}</span> pages written`;
  return w.records !== undefined ? html`${int(w.records)} records` : nothing;
}

/** renderArchiveImports says what a project made from web archives holds: the files imported, when, and what each added. */
function renderArchiveImports(p: Project, files: ArchiveImport[]) {
  return html`<div class="imported" id="crawl-imported" data-archive-imports=${files.length}>
    <p><strong>Imported from web archives</strong> — no crawl: this project's pages come from
      ${files.length === 1 ? 'one file' : `${int(files.length)} files`} (<a href="#/import">Import</a> tells each file's counts).</p>
    <dl class="metrics">
      <div><dt>Sites</dt><dd data-imported-sites>${int(p.sites)}</dd></div>
      <div title="Pages fetched fine, as the header and the site pages count them: redirects and error captures apart"><dt>Pages</dt><dd data-imported-pages>${int(p.pages)}</dd></div>
    </dl>
    <ul class="archive-imports">
      ${files.map(
        (a) => html`<li data-archive-import=${a.kind}>
          <span class="muted">${a.kind}</span> <code title=${a.path}>${a.path.split(/[\\/]/).pop() || a.path}</code>,
          imported ${date(a.imported_at)}: ${archiveCounts(a)}</li>`,
      )}
    </ul>
  </div>`;
}

/** topPlatformsLine says how many platform sites the top list leaves out, as the Sites page hides them. */
function topPlatformsLine(n: number) {
  if (n <= 0) return nothing;
  return html`<p class="muted small" id="crawl-top-platforms" data-count=${n} title=${PLATFORM_NOTE}>
    ${int(n)} platform site${n === 1 ? '' : 's'} not shown
    (<a href=${href('/sites', { platforms: 'only' })}>see ${n === 1 ? 'it' : 'them'}</a>).</p>`;
}

/** recrawlLine says what the recrawl found so far, and once finished which sites moved most. */
function recrawlLine(r: RecrawlReport) {
  const moved = (r.moved ?? []).slice(0, 5);
  return html`<p class="errors-line" id="crawl-recrawl-report">
    <strong>Recrawl ${int(r.round)}${r.finished ? '' : ' (not finished)'}:</strong>
    ${int(r.revisit)} to revisit; ${int(r.unchanged)} unchanged, ${int(r.changed)} changed, ${int(r.new)} new,
    ${int(r.gone)} gone, ${int(r.failed)} failed (kept as they were)${moved.length
      ? html`. Importance moved most: ${moved.map((m, i) => html`${i ? ', ' : ''}<a href=${siteHref(m.site)}>${m.site}</a>
          ${sig(m.before)} → ${sig(m.after)}`)}`
      : nothing}</p>`;
}

declare global {
  interface HTMLElementTagNameMap {
    'ss-crawl': CrawlView;
  }
}
