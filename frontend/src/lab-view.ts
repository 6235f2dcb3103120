// ss-lab: the experiments of the papers, run on the server — OPIC
// convergence by page-selection strategy, Adaptive OPIC window policies on
// a changing graph, the Kim–Lee norm leak of PageRank, and PageRank on the
// project's editorial links against all its links. One card per
// experiment: its parameters, Run, a progress bar, and the last plot (or,
// for the links comparison, its tables) with its CSV.

import { html, nothing, type TemplateResult } from 'lit';
import { type LabExperiment, type LabParams } from './api';
import { LightElement } from './base';
import { Downloads } from './download';
import { date, duration, int } from './format';
import { linksFigure } from './lab-links';
import { EXPERIMENTS, isFinal, labRuns, type Result, type Run } from './lab-runs';
import { alertBox, Loader } from './loader';
import './lab-view.css';

const FORM_KEY = 'sitesift.labForm';

type FormValues = Record<string, string | string[]>;

interface Field {
  key: string;
  label: string;
  kind: 'int' | 'float' | 'select' | 'checks';
  min?: number;
  /** above makes min exclusive: the value must be greater. */
  above?: boolean;
  max?: number;
  step?: string;
  options?: { value: string; label: string }[];
  title?: string;
  /** optional fields may stay empty: the server then fills in its default, which hint describes. */
  optional?: boolean;
  hint?: (f: FormValues) => string;
  shown?: (f: FormValues) => boolean;
  /** wide fields take the whole row. */
  wide?: boolean;
}

interface Experiment {
  id: LabExperiment;
  title: string;
  about: TemplateResult;
  fields: Field[];
  defaults: FormValues;
  /** check returns a message when the form cannot run, after the per-field checks. */
  check?: (p: LabParams) => string;
  /** figure draws a result without a plot from its CSV files (Result.tables). */
  figure?: (tables: Record<string, string>) => TemplateResult;
}

/** num reads a positive whole number from a form field, or undefined. */
function num(v: string | string[] | undefined): number | undefined {
  const n = Number(v);
  return typeof v === 'string' && v.trim() !== '' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** times writes the default of a field that is a multiple of N: "10·N = 100,000", or "10·N" while N is unknown. */
function times(k: number, label: string, n: number | undefined): string {
  return n ? `${label} = ${int(k * n)}` : label;
}

/** steps is the number of steps a run will make: the field, else 10·N. */
function steps(f: FormValues, n: number | undefined): number | undefined {
  return num(f.steps) ?? (n ? 10 * n : undefined);
}

const synthetic = (f: FormValues) => f.graph !== 'project';
const projectGraph = (f: FormValues) => f.graph === 'project';
/** The convergence experiment's N: the synthetic size; a project's graph is counted by the server. */
const convN = (f: FormValues) => (synthetic(f) ? num(f.n) : undefined);

const SPECS: Experiment[] = [
  {
    id: 'convergence',
    title: 'OPIC convergence by crawl strategy',
    about: html`OPIC (Abiteboul, Preda &amp; Cobena) estimates importance <em>while</em> crawling, from the cash each page
      receives and passes on. This run crawls a graph with each page-selection strategy and plots the mean relative
      error of the estimate against the PageRank fixpoint as the crawl proceeds, over all pages and over the top 1%.
      The paper finds <strong>Greedy</strong> (read the page with the most cash) converging fastest, above all on the
      important pages.`,
    defaults: {
      graph: 'synthetic',
      n: '10000',
      avg_out: '8',
      weighting: 'links',
      strategies: ['greedy', 'random', 'cycle'],
      steps: '',
      every: '',
      teleport: '0.15',
      seed: '1',
    },
    fields: [
      {
        key: 'graph',
        label: 'Graph',
        kind: 'select',
        wide: true,
        options: [
          { value: 'synthetic', label: 'Synthetic graph, power-law in-degrees' },
          { value: 'project', label: "This project's site graph" },
        ],
      },
      { key: 'n', label: 'Nodes (N)', kind: 'int', min: 2, max: 1_000_000, shown: synthetic },
      { key: 'avg_out', label: 'Average out-degree', kind: 'float', min: 0, above: true, max: 1000, step: '0.5', shown: synthetic },
      {
        key: 'weighting',
        label: 'Link weights',
        kind: 'select',
        wide: true,
        shown: projectGraph,
        options: [
          { value: 'links', label: 'Links — a site pair weighs its number of links' },
          { value: 'binary', label: 'Binary — each site pair once' },
        ],
      },
      {
        key: 'strategies',
        label: 'Strategies',
        kind: 'checks',
        wide: true,
        options: [
          { value: 'greedy', label: 'Greedy' },
          { value: 'random', label: 'Random' },
          { value: 'cycle', label: 'Cycle' },
        ],
      },
      {
        key: 'steps',
        label: 'Steps (pages read)',
        kind: 'int',
        min: 1,
        optional: true,
        hint: (f) => times(10, '10·N', convN(f)),
        title: 'Pages read by each strategy; empty = 10·N, where the paper has Greedy under 1% error',
      },
      {
        key: 'every',
        label: 'Measure every',
        kind: 'int',
        min: 1,
        optional: true,
        hint: (f) => {
          const s = steps(f, convN(f));
          return s ? `steps/10 = ${int(Math.max(1, Math.floor(s / 10)))}` : 'steps/10';
        },
        title: 'Steps between two error measures; empty = a tenth of the steps',
      },
      { key: 'teleport', label: 'Teleport share', kind: 'float', min: 0, max: 1, step: '0.05', title: 'Share of cash given to the virtual page (PageRank damping 1 − d)' },
      { key: 'seed', label: 'Random seed', kind: 'int', min: 0, title: 'Seeds the synthetic graph and the Random strategy: the same seed gives the same run' },
    ],
    check: (p) => ((p.strategies as string[]).length ? '' : 'Choose at least one strategy.'),
  },
  {
    id: 'windows',
    title: 'Adaptive OPIC on a changing graph',
    about: html`When the web changes, Adaptive OPIC estimates importance from a recent window of each page's history
      only. This run replaces pages and rewires links as it crawls (Greedy), and plots the error of each window policy
      — Fixed Window, Improved Fixed Window, Variable Window (last <em>k</em> measures), Interpolation, and the full
      history for comparison — over time, with the measures each keeps per page. Interpolation, the policy Xyleme used, keeps a
      single measure per page; Improved Fixed Window keeps at least three.`,
    defaults: {
      n: '10000',
      avg_out: '8',
      change_rate: '0.05',
      steps: '',
      every: '',
      window: '',
      measures: '4',
      min_measures: '3',
      teleport: '0.15',
      seed: '1',
    },
    fields: [
      { key: 'n', label: 'Nodes (N)', kind: 'int', min: 2, max: 1_000_000 },
      { key: 'avg_out', label: 'Average out-degree', kind: 'float', min: 0, above: true, max: 1000, step: '0.5' },
      { key: 'change_rate', label: 'Change rate', kind: 'float', min: 0, max: 1, step: '0.01', title: 'Share of the nodes replaced and of the links rewired every N reads' },
      { key: 'steps', label: 'Steps (pages read)', kind: 'int', min: 1, optional: true, hint: (f) => times(10, '10·N', num(f.n)) },
      {
        key: 'every',
        label: 'Measure every',
        kind: 'int',
        min: 1,
        optional: true,
        hint: (f) => {
          const s = steps(f, num(f.n));
          return s ? `steps/20 = ${int(Math.max(1, Math.floor(s / 20)))}` : 'steps/20';
        },
      },
      {
        key: 'window',
        label: 'Time window T (reads)',
        kind: 'float',
        min: 0,
        above: true,
        optional: true,
        hint: (f) => times(4, '4·N', num(f.n)),
        title: 'Length of the fixed windows and of Interpolation; 4·N keeps about 4 measures a page',
      },
      { key: 'measures', label: 'Measures k', kind: 'int', min: 1, title: 'Variable Window keeps the last k measures of each page' },
      { key: 'min_measures', label: 'Least measures', kind: 'int', min: 1, title: 'Improved Fixed Window keeps at least this many (the paper: 3)' },
      { key: 'teleport', label: 'Teleport share', kind: 'float', min: 0, max: 1, step: '0.05' },
      { key: 'seed', label: 'Random seed', kind: 'int', min: 0 },
    ],
  },
  {
    id: 'normleak',
    title: 'PageRank norm leak (Kim & Lee)',
    about: html`With dangling pages (no out-links), the usual PageRank iteration <em>M′</em> loses part of the rank at
      every step, so the scores shrink toward zero and never settle. Kim and Lee's <em>M*</em> hands the dangling
      pages' rank back to all pages at each iteration and keeps the norm at exactly 1. This run plots the norm per
      iteration for both on the paper's ten-page web with 0, 1 and 3 dangling pages.`,
    defaults: { iterations: '20', damping: '0.15' },
    fields: [
      { key: 'iterations', label: 'Iterations', kind: 'int', min: 1, max: 100_000, title: 'The paper: 20' },
      { key: 'damping', label: 'Damping d', kind: 'float', min: 0, above: true, max: 1, step: '0.05', title: "The paper's dampening factor d: the share of rank spread evenly (the teleport)" },
    ],
  },
  {
    id: 'links',
    title: 'PageRank on editorial links against all links',
    about: html`The site graph sitesift ranks on keeps the links authors wrote in a page's main content (the
      <em>editorial</em> links); navigation bars, footers, share buttons and "related" boxes are the template's.
      This run ranks this project's sites by PageRank on both graphs and sets each graph's top sites side by side,
      each with its place on the other graph, with the rank correlations (Spearman, Kendall tau) and the share of
      the top sites both keep, over all sites. <code>sitesift lab links</code> writes the same files.`,
    defaults: { top: '20' },
    fields: [{ key: 'top', label: 'Top sites listed', kind: 'int', min: 1, max: 1000, title: 'How many of the top sites of each graph are listed side by side (links-sites.csv has every site)' }],
    figure: linksFigure,
  },
];

function loadForms(): Record<LabExperiment, FormValues> {
  let saved: Partial<Record<LabExperiment, FormValues>> = {};
  try {
    saved = (JSON.parse(localStorage.getItem(FORM_KEY) ?? 'null') as typeof saved | null) ?? {};
  } catch {
    saved = {};
  }
  const out = {} as Record<LabExperiment, FormValues>;
  for (const s of SPECS) out[s.id] = { ...s.defaults, ...(saved[s.id] ?? {}) };
  return out;
}

/** params checks a form and turns it into the request body, or returns what is wrong. */
function params(spec: Experiment, f: FormValues): LabParams | string {
  const p: LabParams = {};
  for (const fl of spec.fields) {
    if (fl.shown && !fl.shown(f)) continue;
    const v = f[fl.key];
    if (fl.kind === 'checks') {
      p[fl.key] = Array.isArray(v) ? v : [];
      continue;
    }
    if (fl.kind === 'select') {
      p[fl.key] = String(v);
      continue;
    }
    const raw = String(v ?? '').trim();
    if (raw === '') {
      if (!fl.optional) return `${fl.label}: enter a value.`;
      continue; // the server's default
    }
    const n = Number(raw);
    const kind = fl.kind === 'int' ? 'a whole number' : 'a number';
    if (!Number.isFinite(n) || (fl.kind === 'int' && !Number.isInteger(n))) return `${fl.label} must be ${kind}.`;
    if (fl.min !== undefined && fl.above && n <= fl.min) return `${fl.label} must be ${kind} > ${fl.min}.`;
    if (fl.min !== undefined && n < fl.min) return `${fl.label} must be ${kind} ≥ ${fl.min}.`;
    if (fl.max !== undefined && n > fl.max) return `${fl.label} must be ${kind} ≤ ${int(fl.max)}.`;
    p[fl.key] = n;
  }
  return spec.check?.(p) || p;
}

/** summary writes the parameters of a run in one line. */
function summary(p: LabParams): string {
  return Object.entries(p)
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : typeof v === 'number' ? int(v) : v}`)
    .join(' · ');
}

/** svgDataURL makes a plot an image source: an <img> shows SVG but never runs a script in it. */
function svgDataURL(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export class LabView extends LightElement {
  static override properties = {
    forms: { state: true },
    tick: { state: true },
  };

  declare forms: Record<LabExperiment, FormValues>;
  /** tick changes on every update of the runs, to re-render. */
  declare tick: number;

  /** csvURLs are object URLs for the CSV download links, released when replaced or on leaving. */
  #csvURLs = new Map<string, string>();
  /** downloads saves the CSV and SVG files in the desktop window and says where they went. */
  #downloads = new Downloads(this);
  /** #starts asks the server to run each card's experiment; its error is the card's form error or the server's refusal (a run's own error lives in its Run). */
  #starts = Object.fromEntries(EXPERIMENTS.map((e) => [e, new Loader<void>(this)])) as Record<LabExperiment, Loader<void>>;

  constructor() {
    super();
    this.forms = loadForms();
    this.tick = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    labRuns.addEventListener('change', this.#onRuns);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    labRuns.removeEventListener('change', this.#onRuns);
    for (const u of this.#csvURLs.values()) URL.revokeObjectURL(u);
    this.#csvURLs.clear();
  }

  #onRuns = () => {
    this.tick++;
  };

  #set(exp: LabExperiment, key: string, value: string | string[]): void {
    this.forms = { ...this.forms, [exp]: { ...this.forms[exp], [key]: value } };
    this.#starts[exp].error = '';
    try {
      localStorage.setItem(FORM_KEY, JSON.stringify(this.forms));
    } catch {
      /* the form then starts from the defaults next time */
    }
  }

  #reset(spec: Experiment): void {
    this.forms = { ...this.forms, [spec.id]: { ...spec.defaults } };
    this.#starts[spec.id].error = '';
    try {
      localStorage.setItem(FORM_KEY, JSON.stringify(this.forms));
    } catch {
      /* see #set */
    }
  }

  async #run(spec: Experiment, ev: Event): Promise<void> {
    ev.preventDefault();
    const p = params(spec, this.forms[spec.id]);
    if (typeof p === 'string') {
      this.#starts[spec.id].error = p;
      return;
    }
    await this.#starts[spec.id].run(() => labRuns.start(spec.id, p));
  }

  /** csvURL is an object URL of a result's CSV: its main one, or the file named. */
  #csvURL(r: Result, name = ''): string {
    const key = `${r.id}/${name}`;
    let u = this.#csvURLs.get(key);
    if (!u) {
      u = URL.createObjectURL(new Blob([name ? (r.tables?.[name] ?? '') : r.csv], { type: 'text/csv' }));
      this.#csvURLs.set(key, u);
    }
    return u;
  }

  #renderField(spec: Experiment, fl: Field) {
    const f = this.forms[spec.id];
    const id = `lab-${spec.id}-${fl.key}`;
    const v = f[fl.key];
    if (fl.kind === 'checks') {
      const on = Array.isArray(v) ? v : [];
      return html`<fieldset class="field checks ${fl.wide ? 'wide' : ''}" id=${id}>
        <legend>${fl.label}</legend>
        ${fl.options!.map(
          (o) => html`<label class="check">
            <input type="checkbox" value=${o.value} .checked=${on.includes(o.value)}
              @change=${(e: Event) => {
                const c = (e.target as HTMLInputElement).checked;
                // Keep the order of the options, whatever the order of the clicks.
                const next = fl.options!.map((x) => x.value).filter((x) => (x === o.value ? c : on.includes(x)));
                this.#set(spec.id, fl.key, next);
              }} />
            ${o.label}
          </label>`,
        )}
      </fieldset>`;
    }
    if (fl.kind === 'select') {
      return html`<label class="field ${fl.wide ? 'wide' : ''}" title=${fl.title ?? ''}>
        <span>${fl.label}</span>
        <select id=${id} .value=${String(v)} @change=${(e: Event) => this.#set(spec.id, fl.key, (e.target as HTMLSelectElement).value)}>
          ${fl.options!.map((o) => html`<option value=${o.value} ?selected=${o.value === v}>${o.label}</option>`)}
        </select>
      </label>`;
    }
    const placeholder = fl.hint?.(f) ?? '';
    return html`<label class="field ${fl.wide ? 'wide' : ''}" title=${fl.title ?? ''}>
      <span>${fl.label}</span>
      <input id=${id} type="number" inputmode=${fl.kind === 'int' ? 'numeric' : 'decimal'} min=${fl.min ?? ''} max=${fl.max ?? ''}
        step=${fl.step ?? (fl.kind === 'int' ? '1' : 'any')} placeholder=${placeholder} .value=${String(v ?? '')}
        @input=${(e: Event) => this.#set(spec.id, fl.key, (e.target as HTMLInputElement).value)} />
    </label>`;
  }

  #renderProgress(r: Run) {
    const frac = r.total > 0 ? Math.min(1, r.done / r.total) : 0;
    const waiting = r.total <= 0;
    return html`<div class="progress-wrap lab-progress" data-state=${r.state}>
      <div class="progress ${waiting ? 'indeterminate' : ''}" role="progressbar" aria-label="Experiment progress"
        aria-valuemin="0" aria-valuemax=${r.total || 1} aria-valuenow=${waiting ? 0 : r.done}>
        <div class="progress-fill moving" style="width:${waiting ? 100 : (frac * 100).toFixed(1)}%"></div>
      </div>
      <span class="progress-label">${waiting
        ? html`<span class="muted">${r.state === 'starting' ? 'starting…' : r.state}</span>`
        : html`<strong>${Math.round(frac * 100)}%</strong> <span class="muted">${int(r.done)} / ${int(r.total)}</span>`}</span>
    </div>`;
  }

  #renderResult(spec: Experiment, res: Result | undefined, run: Run | undefined) {
    if (!res) {
      const running = run !== undefined && !isFinal(run.state);
      return html`<p class="empty lab-empty">${running ? `Running: the ${spec.figure ? 'result' : 'plot'} appears here when the run ends.` : 'No result yet: run the experiment.'}</p>`;
    }
    const stale = run !== undefined && run.id !== res.id;
    const tables = res.tables && spec.figure ? res.tables : null;
    return html`<figure class="lab-result" data-job=${res.id}>
      ${tables
        ? spec.figure!(tables)
        : html`<img class="lab-plot" src=${svgDataURL(res.svg)} alt="Plot of the ${spec.title} experiment" />`}
      ${res.summary.length ? html`<pre class="lab-summary">${res.summary.join('\n')}</pre>` : nothing}
      <figcaption>
        <span class="muted small" title=${summary(res.params)}>${stale ? 'Previous result' : 'Result'} of
          ${date(new Date(res.finished).toISOString())}${res.elapsedSec >= 0.1 ? ` in ${duration(res.elapsedSec)}` : ''} ·
          ${summary(res.params)}</span>
        <span class="spacer"></span>
        ${tables
          ? Object.keys(tables).map(
              (name, i) => html`<a class="btn small-btn lab-csv" data-file=${name} href=${this.#csvURL(res, name)} download=${name}
                @click=${this.#downloads.click}>${i === 0 ? 'Download ' : ''}${name}</a>`,
            )
          : html`${res.csv
                ? html`<a class="btn small-btn lab-csv" href=${this.#csvURL(res)} download="${spec.id}.csv"
                  @click=${this.#downloads.click}>Download CSV</a>`
                : html`<span class="muted small">no CSV</span>`}
              <a class="btn small-btn" href=${svgDataURL(res.svg)} download="${spec.id}.svg" @click=${this.#downloads.click}>SVG</a>`}
      </figcaption>
      ${this.#downloads.note(`${spec.id}.`)}
    </figure>`;
  }

  #renderCard(spec: Experiment) {
    const run = labRuns.runs.get(spec.id);
    const res = labRuns.results.get(spec.id);
    const active = labRuns.active;
    const mine = active !== null && active.experiment === spec.id;
    const formError = this.#starts[spec.id].error;
    const runError = run?.error ?? '';
    const cancelled = run?.state === 'cancelled';
    return html`<section class="panel lab-card" id="lab-${spec.id}" data-experiment=${spec.id}>
      <div class="lab-head">
        <h2>${spec.title}</h2>
        <p class="muted lab-about">${spec.about}</p>
      </div>
      <div class="lab-body">
        <form class="form lab-form" novalidate @submit=${(ev: Event) => this.#run(spec, ev)}>
          <div class="lab-fields">
            ${spec.fields.filter((fl) => !fl.shown || fl.shown(this.forms[spec.id])).map((fl) => this.#renderField(spec, fl))}
          </div>
          ${alertBox(formError)}
          ${runError ? html`<div class="alert lab-error" role="alert">${runError}</div>` : nothing}
          <div class="actions">
            <button type="submit" class="btn primary lab-run" ?disabled=${active !== null}>${mine ? 'Running…' : 'Run'}</button>
            ${mine
              ? html`<button type="button" class="btn danger lab-cancel" ?disabled=${!active.id} @click=${() => labRuns.cancel()}>Cancel</button>`
              : html`<button type="button" class="btn" @click=${() => this.#reset(spec)}>Defaults</button>`}
            ${active && !mine ? html`<span class="muted small">The ${active.experiment} experiment is running.</span>` : nothing}
            ${cancelled && !mine ? html`<span class="muted small">The last run was cancelled.</span>` : nothing}
          </div>
          ${mine ? this.#renderProgress(active) : nothing}
        </form>
        <div class="lab-output">${this.#renderResult(spec, res, run)}</div>
      </div>
    </section>`;
  }

  override render() {
    return html`
      <div class="toolbar"><h1>Lab</h1><span class="muted">The experiments of the papers behind sitesift, run on this machine.</span></div>
      <div class="lab-layout">${EXPERIMENTS.map((e) => this.#renderCard(SPECS.find((s) => s.id === e)!))}</div>
    `;
  }
}

customElements.define('ss-lab', LabView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-lab': LabView;
  }
}
