// ss-import: import web archives and crawl engines' output into the
// project — WARC files, CDX/CDXJ indexes, Heritrix crawl logs, a slice of
// the Common Crawl host graph, and a link graph as an edge list or the
// domain graph of the Archives Unleashed Toolkit. Files are named by their path on the server
// (what an archivist wants for archives of many gigabytes): typed, or chosen
// in the desktop window's native dialog, which gives paths and copies
// nothing; in a browser, which may run on another machine, they can also
// be uploaded into the project. The
// import runs on the server: a progress bar follows it, Cancel stops it
// (the file being read is dropped whole, those before it are kept), and
// what each file added is listed. The form is kept across reloads, and a
// reload during an import shows it still running. An edge list is imported
// at once, not as a job: the page waits for the answer and shows what the
// reading said (its layout, the lines skipped, each named by its number),
// or, for a file refused, its bad lines.

import { html, nothing } from 'lit';
import { ApiError, RawBody, message, request, type Answer, type ImportRequest, type ImportStatus } from './api';
import type { EdgeImportRequest, EdgeListRefusal } from './api-types.gen';
import { LightElement } from './base';
import { int } from './format';
import { jobFeed } from './job-feed';
import { alertBox, Loader } from './loader';
import { inDesktopWindow, withAllFiles, type FileFilter } from './download';
import { projectChanged } from './project-events';
import './import-view.css';

const FORM_KEY = 'sitesift.importForm';

type Kind = 'warc' | 'cdx' | 'crawl_log' | 'cc' | 'edges';

interface Form {
  kind: Kind;
  warc: string;
  cdx: string;
  crawl_log: string;
  cc_vertices: string;
  cc_edges: string;
  cc_ranks: string;
  tld: string;
  host_suffix: string;
  /** edges is the path of the edge list to import; strict refuses it whole at a bad line. */
  edges: string;
  strict: boolean;
}

const EMPTY: Form = {
  kind: 'warc', warc: '', cdx: '', crawl_log: '', cc_vertices: '', cc_edges: '', cc_ranks: '', tld: '', host_suffix: '',
  edges: '', strict: false,
};

/** EdgeImport is what an edge list's import did, as POST /api/imports/edges answers. */
type EdgeImport = Answer<'POST /api/imports/edges'>;

/** EdgeRefusal is an edge list refused: the server's message and the bad lines it names. */
interface EdgeRefusal {
  message: string;
  lines: EdgeListRefusal['bad_lines'];
  total: number;
}

/** ImportedFile is a file imported into the project, as GET /api/imports lists it. */
export type ImportedFile = NonNullable<Answer<'GET /api/imports'>>[number];

export const importApi = {
  start: (req: ImportRequest) => request<Answer<'POST /api/imports'>>('POST', '/api/imports', req),
  /** edges imports an edge list on the server into the site graph and answers once it is done. */
  edges: (req: EdgeImportRequest) => request<EdgeImport>('POST', '/api/imports/edges', req),
  cancel: () => request<Answer<'POST /api/imports/cancel'>>('POST', '/api/imports/cancel'),
  history: (signal?: AbortSignal) => request<Answer<'GET /api/imports'>>('GET', '/api/imports', undefined, signal),
  /**
   * upload sends a file chosen in a browser, streamed from its disk as it is read (never whole in memory), and
   * returns its path on the server. The desktop window, whose WebKit cannot send a File, chooses paths instead.
   */
  upload: async (file: File): Promise<string> => {
    const res = await request<Answer<'POST /api/imports/upload'>>('POST', `/api/imports/upload?name=${encodeURIComponent(file.name)}`, new RawBody(file, 'application/octet-stream'));
    if (!res?.path) throw new Error(`upload of ${file.name}: the server answered no path`);
    return res.path;
  },
  /** choose asks the desktop window's native dialog for files and returns their paths; null when cancelled. */
  choose: async (title: string, filters: FileFilter[]) => {
    const res = await request<Answer<'POST /api/desktop/choose'>>('POST', '/api/desktop/choose', { title, filters });
    return res.cancelled ? null : res.paths;
  },
};

/** PathField is a field of the form that lists files. */
type PathField = 'warc' | 'cdx' | 'crawl_log' | 'cc_vertices' | 'cc_edges' | 'cc_ranks' | 'edges';

/** TextField is a field of the form that holds text. */
type TextField = Exclude<keyof Form, 'kind' | 'strict'>;

/**
 * fieldFor is the field a file chosen or uploaded for an import of kind goes to: for the Common Crawl host
 * graph, by its name as Common Crawl names its files (…-vertices…, …-ranks…, the edges otherwise).
 */
export function fieldFor(kind: Kind, name: string): PathField {
  if (kind === 'edges') return 'edges';
  if (kind !== 'cc') return kind;
  const base = name.split(/[\\/]/).pop()?.toLowerCase() ?? '';
  if (base.includes('vertices')) return 'cc_vertices';
  if (base.includes('ranks')) return 'cc_ranks';
  return 'cc_edges';
}

/** DIALOG_FILTERS are the native dialog's file types for each kind; "All files" follows them. */
const DIALOG_FILTERS: Record<Kind, FileFilter[]> = {
  warc: [{ name: 'WARC and ARC files', pattern: '*.warc;*.warc.gz;*.arc;*.arc.gz' }],
  cdx: [{ name: 'CDX and CDXJ indexes', pattern: '*.cdx;*.cdxj;*.cdx.gz;*.cdxj.gz' }],
  crawl_log: [{ name: 'Crawl logs', pattern: 'crawl.log*;*.log' }],
  cc: [{ name: 'Host graph dumps', pattern: '*.txt.gz;*.txt;*.gz' }],
  edges: [{ name: 'Edge lists and domain graphs', pattern: '*.txt;*.tsv;*.csv;*.graphml;*.gexf;*.gz' }],
};

/** EDGE_FILES are the names an edge list goes by, for the browser's file chooser (any file is read the same). */
const EDGE_FILES = '.txt,.tsv,.csv,.graphml,.gexf,.gz,text/plain,text/csv,text/tab-separated-values';

/** lines splits a text area into its non-empty lines. */
function lines(s: string): string[] {
  return s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** words splits a list of names at commas and spaces. */
function words(s: string): string[] {
  return s
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter(Boolean);
}

function loadForm(): Form {
  try {
    const f = JSON.parse(localStorage.getItem(FORM_KEY) ?? '{}') as Partial<Form>;
    return { ...EMPTY, ...f };
  } catch {
    return { ...EMPTY };
  }
}

const KINDS: { id: Kind; label: string; about: string }[] = [
  { id: 'warc', label: 'WARC / ARC files', about: 'HTML responses become pages (text searchable, links in the graph); revisits count as captures. ARC files, the format before WARC, are read alike.' },
  { id: 'cdx', label: 'CDX / CDXJ index', about: 'What the archive already holds, per site: URLs, captures, first and last capture.' },
  { id: 'crawl_log', label: 'Heritrix crawl.log', about: 'The page graph of a crawl whose WARC files are elsewhere: each line’s via → URL is a link.' },
  { id: 'cc', label: 'Common Crawl host graph', about: 'A national or thematic slice of the web’s host graph: its hosts, the links among them, links from outside counted.' },
  {
    id: 'edges',
    label: 'Edge list / domain graph',
    about: 'A link graph other tools wrote, into a project that was not crawled: SRC DST [WEIGHT] a line, of host names or of integer ids (LAW, SNAP, networkx, igraph), or the domain graph of the Archives Unleashed Toolkit or ARCH (CSV, GraphML, GEXF); .gz read directly.',
  },
];

const PHASES: Record<string, string> = { digest: 'checking', read: 'reading', rank: 'computing PageRank and OPIC', index: 'indexing for search' };

/** lastImportState is the state of the project's import last seen in the job feed. */
let lastImportState: ImportStatus['state'] | '' = '';

/**
 * The end of an import seen running (done, failed or cancelled: the files before a failure stay imported) tells
 * the app its data changed, whichever page is shown.
 */
jobFeed.addEventListener('import', () => {
  const state = jobFeed.jobs.import?.state ?? '';
  const ended = lastImportState === 'running' && state !== 'running';
  lastImportState = state;
  if (ended) projectChanged();
});

export class SsImport extends LightElement {
  static override properties = {
    form: { state: true },
    status: { state: true },
    edgeResult: { state: true },
    edgeRefusal: { state: true },
  };

  declare form: Form;
  declare status: ImportStatus | null;
  /** edgeResult is what the last edge list imported added and skipped; edgeRefusal why the last one was refused. */
  declare edgeResult: EdgeImport | null;
  declare edgeRefusal: EdgeRefusal | null;

  /** #history is the list of files imported into the project. */
  #history = new Loader<ImportedFile[]>(this, []);
  /** #action is what the user asked for last: an import started or cancelled, files uploaded or chosen. */
  #action = new Loader<unknown>(this);

  constructor() {
    super();
    this.form = loadForm();
    this.status = jobFeed.jobs.import ?? null;
    this.edgeResult = null;
    this.edgeRefusal = null;
  }

  override connectedCallback() {
    super.connectedCallback();
    jobFeed.addEventListener('import', this.#onStatus);
    jobFeed.start();
    this.status = jobFeed.jobs.import ?? null;
    void this.#loadHistory();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    jobFeed.removeEventListener('import', this.#onStatus);
  }

  #onStatus = () => {
    const st = jobFeed.jobs.import;
    if (!st) return;
    const was = this.status;
    // A status read before the import shown started (the feed's, overtaken by the start's answer) is old news.
    if (was?.started_at && st.started_at && Date.parse(st.started_at) < Date.parse(was.started_at)) return;
    this.status = st;
    if (was?.state === 'running' && st.state !== 'running') void this.#loadHistory();
  };

  #loadHistory() {
    return this.#history.run(async (signal) => (await importApi.history(signal)) ?? []);
  }

  #set<K extends keyof Form>(key: K, value: Form[K]) {
    this.form = { ...this.form, [key]: value };
    localStorage.setItem(FORM_KEY, JSON.stringify(this.form));
  }

  #request(): ImportRequest {
    const f = this.form;
    switch (f.kind) {
      case 'edges':
        throw new Error('an edge list is imported by POST /api/imports/edges');
      case 'warc':
        return { warc: lines(f.warc) };
      case 'cdx':
        return { cdx: lines(f.cdx) };
      case 'crawl_log':
        return { crawl_log: lines(f.crawl_log) };
      case 'cc':
        return {
          cc_vertices: lines(f.cc_vertices),
          cc_edges: lines(f.cc_edges),
          cc_ranks: lines(f.cc_ranks),
          tld: words(f.tld),
          host_suffix: words(f.host_suffix),
        };
    }
  }

  #start(e: Event) {
    e.preventDefault();
    if (this.form.kind === 'edges') return this.#importEdges();
    // Started means running, however soon the feed finds it ended.
    return this.#action.run(async () => jobFeed.update('import', await importApi.start(this.#request())));
  }

  async #cancel() {
    if ((await this.#action.run(async () => jobFeed.update('import', await importApi.cancel()))) === 'done') void this.#loadHistory();
  }

  /**
   * #importEdges imports the edge list named in the form and shows what its reading said, or why it was refused:
   * its bad lines by number when the server names them.
   */
  async #importEdges() {
    const path = this.form.edges.trim();
    this.edgeResult = null;
    this.edgeRefusal = null;
    const outcome = await this.#action.run(async () => {
      try {
        this.edgeResult = await importApi.edges({ path, strict: this.form.strict });
      } catch (err) {
        const data = err instanceof ApiError ? (err.data as EdgeListRefusal | undefined) : undefined;
        this.edgeRefusal = { message: message(err), lines: data?.bad_lines ?? [], total: data?.total_bad ?? 0 };
      }
    });
    if (outcome === 'done' && this.edgeResult) projectChanged();
  }

  /** #addPaths adds paths, each to the field of the kind chosen that fieldFor gives it, after those listed. */
  #addPaths(paths: string[]) {
    for (const path of paths) {
      const key = fieldFor(this.form.kind, path);
      // An edge list is one file: the last chosen replaces the one before.
      this.#set(key, key === 'edges' ? path : [...lines(this.form[key]), path].join('\n'));
    }
  }

  /** #upload sends the files chosen in a browser and adds their paths on the server to the form. */
  async #upload(e: Event) {
    const input = e.target as HTMLInputElement;
    const files = Array.from(input.files ?? []);
    if (!files.length) return;
    await this.#action.run(async () => {
      for (const f of files) this.#addPaths([await importApi.upload(f)]);
    });
    input.value = '';
  }

  /** #choose asks the desktop window's Open dialog for files and adds their paths to the form. */
  #choose() {
    const kind = KINDS.find((k) => k.id === this.form.kind);
    return this.#action.run(async () => {
      const paths = await importApi.choose(`Import ${kind?.label ?? 'files'}`, withAllFiles(DIALOG_FILTERS[this.form.kind]));
      if (paths) this.#addPaths(paths);
    });
  }

  #paths(key: TextField, label: string, placeholder: string, hint = '') {
    return html`<label class="field wide">
      <span>${label}</span>
      <textarea id="import-${key}" rows="3" spellcheck="false" placeholder=${placeholder} .value=${this.form[key]}
        @input=${(e: Event) => this.#set(key, (e.target as HTMLTextAreaElement).value)}></textarea>
      ${hint ? html`<span class="muted small">${hint}</span>` : nothing}
    </label>`;
  }

  #renderForm(running: boolean) {
    const f = this.form;
    // The window and the server are one computer; a browser may be on another.
    const where = inDesktopWindow() ? 'on this computer' : 'on the server';
    return html`<form class="import-form panel" @submit=${this.#start}>
      <fieldset class="import-kinds">
        <legend>What to import</legend>
        ${KINDS.map(
          (k) => html`<label class="check" title=${k.about}>
            <input type="radio" name="import-kind" value=${k.id} .checked=${f.kind === k.id}
              @change=${() => this.#set('kind', k.id)} />
            ${k.label}
          </label>`,
        )}
        <p class="muted small import-about">${KINDS.find((k) => k.id === f.kind)?.about}</p>
      </fieldset>
      ${f.kind === 'warc'
        ? this.#paths('warc', `WARC or ARC files or directories ${where}, one a line`, '/archives/crawl-2024/\n/archives/extra.warc.gz\n/archives/IA-2006.arc.gz', '.warc, .warc.gz, .arc and .arc.gz: WARC 0.17, 1.0 and 1.1, ARC; plain, gzip per record or whole; a directory is read whole')
        : nothing}
      ${f.kind === 'edges'
        ? html`<label class="field wide">
              <span>Edge list or domain graph ${where}</span>
              <input id="import-edges" spellcheck="false" placeholder="/graphs/hostgraph.txt.gz" .value=${f.edges}
                @input=${(e: Event) => this.#set('edges', (e.target as HTMLInputElement).value)} />
              <span class="muted small">.txt, .tsv, .csv, .graphml, .gexf, and any of them as .gz; a bad line (a name that is no host name,
                a bad weight) is skipped, counted and named by its number</span>
            </label>
            <label class="check import-strict">
              <input id="import-strict" type="checkbox" .checked=${f.strict}
                @change=${(e: Event) => this.#set('strict', (e.target as HTMLInputElement).checked)} />
              Refuse the whole file on any bad line
            </label>`
        : nothing}
      ${f.kind === 'cdx' ? this.#paths('cdx', `CDX or CDXJ files ${where}, one a line`, '/archives/index.cdx') : nothing}
      ${f.kind === 'crawl_log' ? this.#paths('crawl_log', `crawl.log files ${where}, one a line`, '/heritrix/jobs/x/latest/logs/crawl.log') : nothing}
      ${f.kind === 'cc'
        ? html`${this.#paths('cc_vertices', 'Vertices files (id, reversed host), one a line', '/cc/host-vertices-00000.txt.gz')}
          ${this.#paths('cc_edges', 'Edges files (from id, to id), one a line', '/cc/host-edges-00000.txt.gz')}
          ${this.#paths('cc_ranks', 'Ranks files (optional): harmonic centrality and PageRank', '/cc/host-ranks.txt.gz')}
          <div class="import-slice">
            <label class="field"><span>TLDs</span>
              <input id="import-tld" placeholder="fr, be" .value=${f.tld} @input=${(e: Event) => this.#set('tld', (e.target as HTMLInputElement).value)} /></label>
            <label class="field"><span>Host suffixes</span>
              <input id="import-host_suffix" placeholder="bnf.fr, gouv.fr" .value=${f.host_suffix}
                @input=${(e: Event) => this.#set('host_suffix', (e.target as HTMLInputElement).value)} /></label>
          </div>`
        : nothing}
      <div class="import-actions">
        <button type="submit" class="btn primary import-start" ?disabled=${running || this.#action.busy}>${running || (f.kind === 'edges' && this.#action.busy) ? 'Importing…' : 'Import'}</button>
        ${running ? html`<button type="button" class="btn danger import-cancel" ?disabled=${this.#action.busy} @click=${this.#cancel}>Cancel</button>` : nothing}
        ${inDesktopWindow()
          ? html`<button type="button" class="btn import-choose" title="Choose files on this computer: they are imported where they are, not copied"
              ?disabled=${running || this.#action.busy} @click=${this.#choose}>Choose files…</button>`
          : html`<label class="btn import-upload" title="Send files from this computer to the project, then import them">
              Upload files…
              <input type="file" ?multiple=${f.kind !== 'edges'} accept=${f.kind === 'edges' ? EDGE_FILES : ''} hidden
                ?disabled=${running || this.#action.busy} @change=${this.#upload} />
            </label>`}
      </div>
    </form>`;
  }

  #renderProgress(st: ImportStatus) {
    const p = st.progress;
    const frac = p.bytes_total > 0 ? Math.min(1, p.bytes_done / p.bytes_total) : 0;
    return html`<div class="progress-wrap import-progress" data-state=${st.state}>
      <div class="progress" role="progressbar" aria-label="Import progress" aria-valuemin="0" aria-valuemax="100"
        aria-valuenow=${Math.round(frac * 100)}>
        <div class="progress-fill moving" style="width:${(frac * 100).toFixed(1)}%"></div>
      </div>
      <span class="progress-label"><strong>${Math.round(frac * 100)}%</strong>
        <span class="muted">file ${Math.min(p.files_done + 1, p.files)} of ${p.files} · ${PHASES[p.phase] ?? p.phase}
          ${p.file ? html`<bdi dir="ltr">${p.file}</bdi>` : nothing}</span></span>
    </div>`;
  }

  #renderResult(st: ImportStatus) {
    const files = st.result?.files ?? [];
    if (st.state === 'idle') return nothing;
    return html`<section class="import-result panel" data-state=${st.state}>
      <h3>${st.state === 'running' ? 'Importing' : st.state === 'done' ? 'Import done' : st.state === 'cancelled' ? 'Import cancelled' : 'Import failed'}</h3>
      ${st.state === 'running' ? this.#renderProgress(st) : nothing}
      ${st.error ? alertBox(st.error) : nothing}
      ${files.length
        ? html`<table class="data import-files">
            <thead><tr><th>Kind</th><th>File</th><th>What it added</th></tr></thead>
            <tbody>
              ${files.map(
                (f) => html`<tr data-path=${f.path}>
                  <td>${f.kind}</td>
                  <td class="path"><bdi dir="ltr">${f.path}</bdi></td>
                  <td>${f.skipped ? html`<span class="muted">imported before, skipped</span>` : summaryText(f.summary)}
                    ${(f.warnings ?? []).map((w) => html`<p class="import-warning">Warning: ${w}</p>`)}</td>
                </tr>`,
              )}
            </tbody>
          </table>`
        : nothing}
      ${st.state === 'done' ? html`<p class="muted small">PageRank and OPIC recomputed; ${int(st.result.indexed)} pages indexed for search.</p>` : nothing}
    </section>`;
  }

  /** #renderEdges is what the last edge list imported added and skipped, or why it was refused. */
  #renderEdges() {
    const ref = this.edgeRefusal;
    if (ref) {
      // The server's message names the file and each bad line; its first line says what came of the file.
      const [head] = ref.message.split('\n');
      const lines = ref.lines ?? [];
      return html`<section class="import-edges panel" data-state="refused">
        <h3>Edge list refused</h3>
        ${alertBox(head)}
        ${lines.length
          ? html`<ol class="edge-lines bad">
              ${lines.map((l) => html`<li data-line=${l.line}><span class="line-no">line ${int(l.line)}</span> ${l.error}</li>`)}
            </ol>
            ${ref.total > lines.length ? html`<p class="muted small">and ${int(ref.total - lines.length)} more bad lines</p>` : nothing}`
          : nothing}
      </section>`;
    }
    const r = this.edgeResult;
    if (!r) return nothing;
    const read = r.read;
    const first = read.skipped_first ?? [];
    const why = read.skipped_why ?? [];
    const file = r.file.split(/[\\/]/).pop() ?? r.file;
    return html`<section class="import-edges panel" data-state="done" data-skipped=${read.skipped_lines}>
      <h3>Edge list imported</h3>
      <p class="edge-summary"><bdi dir="ltr" title=${r.file}>${file}</bdi> —
        <strong class="edge-format">${read.format || 'edge list'}</strong>${read.ids ? ' of integer ids' : ''}:
        <strong data-count="sites">${int(r.sites)}</strong> ${read.ids ? 'nodes' : 'sites'},
        <strong data-count="edges">${int(r.edges)}</strong> edges${r.self_edges
          ? html` (<span data-count="self-edges">${int(r.self_edges)}</span> self-edges dropped)`
          : nothing},
        <strong data-count="skipped">${int(read.skipped_lines)}</strong> ${read.skipped_lines === 1 ? 'bad line' : 'bad lines'} skipped.
        PageRank and OPIC computed on the whole graph.</p>
      ${read.ids && read.ids_unnamed
        ? html`<p class="muted small">${int(read.ids_unnamed)} ids up to the largest that no line names
            ${read.ids_unnamed_left_out ? 'are left out (more than the ids named)' : 'are nodes without links'}.</p>`
        : nothing}
      ${read.skipped_lines
        ? html`<ul class="edge-why">
              ${why.map((w) => html`<li><strong>${int(w.lines)}</strong> ${w.lines === 1 ? 'line' : 'lines'}: ${w.why}</li>`)}
            </ul>
            <p class="muted small">The lines skipped${read.skipped_lines > first.length ? `, the first ${first.length}` : ''}, by number
              (tick “Refuse the whole file on any bad line” to refuse such a file instead):</p>
            <ol class="edge-lines">
              ${first.map((l) => html`<li data-line=${l.line}><span class="line-no">line ${int(l.line)}</span> ${l.error}</li>`)}
            </ol>
            ${read.skipped_lines > first.length
              ? html`<p class="muted small">and ${int(read.skipped_lines - first.length)} more lines skipped, not named</p>`
              : nothing}`
        : nothing}
    </section>`;
  }

  #renderHistory() {
    const history = this.#history.value ?? [];
    if (!history.length) return nothing;
    return html`<section class="import-history panel">
      <h3>Files imported into this project</h3>
      <table class="data">
        <thead><tr><th>When</th><th>Kind</th><th>File</th><th class="num">Size</th><th>What it added</th></tr></thead>
        <tbody>
          ${[...history].reverse().map(
            (f) => html`<tr>
              <td class="when">${new Date(f.imported_at).toLocaleString()}</td>
              <td>${f.kind}${f.slice ? html`<div class="import-slice" title="The slice of the host graph kept">${f.slice}</div>` : nothing}</td>
              <td class="path"><bdi dir="ltr">${f.path}</bdi></td>
              <td class="num">${int(f.size)}</td>
              <td>${summaryText(f.summary)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </section>`;
  }

  override render() {
    const st = this.status;
    const running = st?.state === 'running';
    return html`<div class="import-layout">
      <header class="import-head">
        <h2>Import archives and graphs</h2>
        <p class="muted import-intro">Bring in what Heritrix, Browsertrix, wget, warcprox or Common Crawl have gathered, or a site
          graph (an edge list, the domain graph of the Archives Unleashed Toolkit or ARCH, GraphML, GEXF): the sites are
          ranked with the project's, and importing the same archive file twice changes nothing.</p>
      </header>
      ${alertBox(this.#action.error || this.#history.error)}
      ${this.#renderForm(running)}
      ${this.form.kind === 'edges' ? this.#renderEdges() : nothing}
      ${st ? this.#renderResult(st) : nothing}
      ${this.#renderHistory()}
    </div>`;
  }
}

/** summaryLabels words the counts whose key alone would not say what they count. */
const summaryLabels: Record<string, string> = {
  from_outside: 'links from outside the slice',
  unknown_ids: 'links naming ids in no vertices file',
  redirects: 'redirect pages',
  // The pages written split as the header and the site pages count: those count only the pages fetched fine.
  pages_written: 'written (pages, redirects and error captures)',
  written_pages: 'pages fetched fine',
  written_redirects: 'redirects written',
  written_error_captures: 'error captures written (4xx, 5xx)',
  warnings: 'records read past a breach of the WARC standard',
  warn_bracketed_uris: 'target URIs in angle brackets',
  warn_content_length: 'Content-Lengths off (resynchronised)',
  warn_cr_cr_lf: 'headers ending lines in CR CR LF',
  warn_lower_case_version: 'lower-case version lines',
  warn_folded_headers: 'headers with folded lines',
  warn_space_in_uris: 'target URIs with white space',
  dns: 'dns: records (host lookups) skipped',
};

/** summaryText writes a file's counts, the non-zero ones, as "20 html pages · 123 revisits". */
function summaryText(s: unknown) {
  if (!s || typeof s !== 'object') return '';
  return Object.entries(s as Record<string, unknown>)
    .filter(([, v]) => v !== 0 && v !== '' && v !== undefined)
    .map(([k, v]) => `${typeof v === 'number' ? int(v) : v} ${summaryLabels[k] ?? k.replaceAll('_', ' ')}`)
    .join(' · ');
}

customElements.define('ss-import', SsImport);

declare global {
  interface HTMLElementTagNameMap {
    'ss-import': SsImport;
  }
}
