// ss-communities: seed lists from HITS communities. The librarian picks the
// extractor (cover density, or fixed core size), runs it, and gets the
// bipartite cores found — each with its seed, hubs and authorities — and a
// picture of the site graph coloured by core. Seeds can be unchecked or
// added by hand before the list is exported.

import { html, nothing } from 'lit';
import { api, isAbort, message, type CommunityParams, type Core, type ExportFormat, type SiteGraph } from './api';
import { LightElement } from './base';
import { Downloads, inDesktopWindow, saveBlob } from './download';
import { int, sig } from './format';
import { alertBox, Loader, spinner } from './loader';
import { siteHref } from './router';
import { coreColour, coreName } from './site-graph';
import './site-graph';
import './communities-view.css';

/** GRAPH_LIMIT is the number of sites drawn: the most important ones; more would make a hairball. */
const GRAPH_LIMIT = 150;

type Mode = 'density' | 'size';

/** Found is one run of the extractor: its cores and the picture of the same run (or why it could not be made). */
interface Found {
  cores: Core[] | null;
  graph: SiteGraph | null;
  graphError: string;
}

interface Form {
  count: string;
  mode: Mode;
  density: string;
  core_size: string;
  new_members: string;
  min_side: string;
}

const DEFAULT_FORM: Form = { count: '10', mode: 'density', density: '100', core_size: '10', new_members: '1', min_side: '2' };

/**
 * Session is what the page shows, kept while the user visits other pages:
 * coming back finds the same cores, selection and added seeds.
 */
interface Session {
  params: CommunityParams | null;
  cores: Core[] | null;
  graph: SiteGraph | null;
  graphError: string;
  /** unchecked are the core seeds the librarian left out. */
  unchecked: Set<string>;
  /** added are the seeds the librarian typed in, in order. */
  added: string[];
}

const session: Session = { params: null, cores: null, graph: null, graphError: '', unchecked: new Set(), added: [] };

/** siteOf applies sitesift's site rule (host, lower-cased, port when not the default) to a URL. */
export function siteOf(u: string): string {
  try {
    return new URL(u).host.replace(/\.$/, '');
  } catch {
    return u;
  }
}

/** normalizeSeed checks a typed seed: an http(s) URL, or a bare host name taken as http://HOST/. */
export function normalizeSeed(raw: string): string | { error: string } {
  let t = raw.trim();
  if (!t) return { error: 'Type a URL.' };
  if (/\s/.test(t)) return { error: 'One URL at a time, without spaces.' };
  if (!/^[a-z][a-z0-9+.-]*:/i.test(t)) t = `http://${t}`;
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return { error: `"${raw.trim()}" is not a URL.` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { error: 'Seeds are http or https URLs.' };
  if (!u.hostname) return { error: 'The URL has no host.' };
  u.hash = '';
  return u.href;
}

/** density formats a cover density in percent: "100%", "87.5%". */
function density(x: number): string {
  return `${Number.isInteger(x) ? x : x.toFixed(1)}%`;
}

function formFromParams(p: URLSearchParams): Form {
  const f = { ...DEFAULT_FORM };
  const pos = (k: string) => {
    const v = p.get(k);
    return v !== null && /^\d+(\.\d+)?$/.test(v) ? v : null;
  };
  f.count = pos('count') ?? f.count;
  f.min_side = pos('min_hubs') ?? f.min_side;
  if (pos('core_size')) {
    f.mode = 'size';
    f.core_size = pos('core_size')!;
    f.new_members = pos('new_members') ?? f.new_members;
  } else {
    f.density = pos('density') ?? f.density;
  }
  return f;
}

function toParams(f: Form): CommunityParams | string {
  const count = Number(f.count);
  if (!Number.isInteger(count) || count < 1) return 'Number of seeds (K) must be a whole number ≥ 1.';
  const min = Number(f.min_side);
  if (!Number.isInteger(min) || min < 1) return 'Least hubs and authorities must be a whole number ≥ 1.';
  const least = { min_hubs: min, min_authorities: min };
  if (f.mode === 'density') {
    const d = Number(f.density);
    if (f.density.trim() === '' || !Number.isFinite(d) || d <= 0 || d > 100) return 'Cover density must be a number above 0 and at most 100.';
    return { count, density: d, ...least };
  }
  const size = Number(f.core_size);
  const nm = Number(f.new_members);
  if (!Number.isInteger(size) || size < 2) return 'Core size must be a whole number ≥ 2.';
  if (!Number.isInteger(nm) || nm < 1) return 'New members must be a whole number ≥ 1.';
  if (size < 2 * min) return `Core size must be at least ${2 * min}, the least core of ${min} hubs and ${min} authorities.`;
  return { count, core_size: size, new_members: nm, ...least };
}

function paramsQuery(p: CommunityParams): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) if (v !== undefined) q.set(k, String(v));
  return q;
}

export class CommunitiesView extends LightElement {
  static override properties = {
    params: { attribute: false },
    form: { state: true },
    cores: { state: true },
    graph: { state: true },
    graphError: { state: true },
    unchecked: { state: true },
    added: { state: true },
    addText: { state: true },
    addError: { state: true },
    exporting: { state: true },
    exportNote: { state: true },
    exportText: { state: true },
    exportError: { state: true },
    copied: { state: true },
    highlight: { state: true },
  };

  declare params: URLSearchParams;
  declare form: Form;
  declare cores: Core[] | null;
  declare graph: SiteGraph | null;
  declare graphError: string;
  declare unchecked: Set<string>;
  declare added: string[];
  declare addText: string;
  declare addError: string;
  declare exporting: ExportFormat | '';
  declare exportNote: string;
  /** exportText is the last exported file, shown for copying where downloads do not work (the desktop window). */
  declare exportText: string;
  declare exportError: string;
  declare copied: string;
  declare highlight: number;

  /** run is the extractor's last run; its error is also the form's. */
  #run = new Loader<Found>(this);
  /** downloads saves the export links' files in the desktop window, where a link alone saves nothing. */
  #downloads = new Downloads(this);

  constructor() {
    super();
    this.params = new URLSearchParams();
    this.form = { ...DEFAULT_FORM };
    this.cores = session.cores;
    this.graph = session.graph;
    this.graphError = session.graphError;
    this.unchecked = session.unchecked;
    this.added = session.added;
    this.addText = '';
    this.addError = '';
    this.exporting = '';
    this.exportNote = '';
    this.exportText = '';
    this.exportError = '';
    this.copied = '';
    this.highlight = -2;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The address wins (a bookmark, a reload); else the last run of this session.
    const q = this.params.toString() ? this.params : session.params ? paramsQuery(session.params) : null;
    this.form = q ? formFromParams(q) : { ...DEFAULT_FORM };
  }

  #set<K extends keyof Form>(k: K, v: Form[K]): void {
    this.form = { ...this.form, [k]: v };
    this.#run.error = '';
  }

  #onRun = async (ev: Event) => {
    ev.preventDefault();
    const p = toParams(this.form);
    if (typeof p === 'string') {
      this.#run.error = p;
      return;
    }
    history.replaceState(history.state, '', `#/communities?${paramsQuery(p)}`);
    this.#run.error = '';
    const got = await this.#run.run(async (signal) => {
      // Cores and picture together: the picture's colours are the cores of the same run.
      const [cores, graph] = await Promise.all([
        api.communities(p, signal),
        api.graph({ ...p, limit: GRAPH_LIMIT }, signal).then(
          (g) => ({ g, err: '' }),
          (err: unknown) => {
            if (isAbort(err)) throw err;
            return { g: null, err: message(err) };
          },
        ),
      ]);
      return { cores, graph: graph.g, graphError: graph.err };
    });
    const found = this.#run.value;
    if (got !== 'done' || !found) return;
    // A new run starts with every seed selected; seeds added by hand stay.
    session.params = p;
    session.cores = this.cores = found.cores ?? [];
    session.graph = this.graph = found.graph;
    session.graphError = this.graphError = found.graphError;
    session.unchecked = this.unchecked = new Set();
    this.exportNote = '';
    this.exportError = '';
  };

  #toggle(seed: string, on: boolean): void {
    const next = new Set(this.unchecked);
    if (on) next.delete(seed);
    else next.add(seed);
    session.unchecked = this.unchecked = next;
    this.exportNote = '';
  }

  #onAdd = (ev: Event) => {
    ev.preventDefault();
    const r = normalizeSeed(this.addText);
    if (typeof r !== 'string') {
      this.addError = r.error;
      return;
    }
    const core = (this.cores ?? []).find((c) => c.seed === r);
    if (core) {
      // A core's own seed: adding it back means checking it again.
      this.#toggle(r, true);
    } else if (this.added.includes(r)) {
      this.addError = 'That seed is in the list already.';
      return;
    } else {
      session.added = this.added = [...this.added, r];
    }
    this.addText = '';
    this.addError = '';
    this.exportNote = '';
  };

  #remove(seed: string): void {
    session.added = this.added = this.added.filter((s) => s !== seed);
    this.exportNote = '';
  }

  /** seeds is the list to export: the checked core seeds in core order, then the added ones. */
  #seeds(): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (const c of this.cores ?? []) {
      if (this.unchecked.has(c.seed) || seen.has(c.seed)) continue;
      seen.add(c.seed);
      out.push(c.seed);
    }
    for (const s of this.added) {
      if (seen.has(s)) continue;
      seen.add(s);
      out.push(s);
    }
    return out;
  }

  async #export(format: ExportFormat): Promise<void> {
    const seeds = this.#seeds();
    if (seeds.length === 0) {
      this.exportError = 'The list is empty: check or add at least one seed.';
      return;
    }
    this.exporting = format;
    this.exportError = '';
    this.exportNote = '';
    try {
      const file = await api.exportSeeds(seeds, format);
      const name = file.filename || `seeds.${format}`;
      saveBlob(new Blob([file.text], { type: file.type || 'text/plain' }), name);
      // The desktop window saves downloads without a word: say where.
      const desktop = inDesktopWindow();
      this.exportNote = `${name}: ${int(seeds.length)} ${seeds.length === 1 ? 'seed' : 'seeds'}${desktop ? ', saved in your Downloads (or home) folder' : ''}.`;
      this.exportText = file.text;
      this.copied = '';
    } catch (err) {
      this.exportError = message(err);
    } finally {
      this.exporting = '';
    }
  }

  async #copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.exportText);
      this.copied = 'Copied.';
    } catch {
      // No clipboard access (the desktop window may refuse it): select the text for Ctrl+C.
      const d = this.querySelector<HTMLDetailsElement>('details.export-preview');
      if (d) d.open = true;
      await this.updateComplete;
      const pre = this.querySelector('details.export-preview pre');
      if (pre) window.getSelection()?.selectAllChildren(pre);
      this.copied = 'Selected: press Ctrl+C.';
    }
  }

  #renderForm() {
    const f = this.form;
    const density = f.mode === 'density';
    return html`<form class="panel form communities-form" novalidate @submit=${this.#onRun}>
      <h2>Find communities</h2>
      <p class="muted small">
        HITS ranks hubs and authorities on the link graph; the best bipartite core (hubs all linking to the same
        authorities) is taken out, its best hub becomes a seed, and the search repeats on what is left — one seed per
        community.
      </p>
      <label class="field">
        <span>Number of seeds (K)</span>
        <input id="communities-count" type="number" min="1" step="1" .value=${f.count}
          @input=${(e: Event) => this.#set('count', (e.target as HTMLInputElement).value)} />
      </label>
      <fieldset class="field mode">
        <legend>Cores</legend>
        <label class="check">
          <input type="radio" name="mode" value="density" .checked=${density} @change=${() => this.#set('mode', 'density')} />
          By cover density
        </label>
        <label class="check">
          <input type="radio" name="mode" value="size" .checked=${!density} @change=${() => this.#set('mode', 'size')} />
          By fixed size
        </label>
      </fieldset>
      ${density
        ? html`<label class="field" title="100·links between hubs and authorities / (hubs × authorities); 100 = every hub links to every authority">
            <span>Cover density (%)</span>
            <input id="communities-density" type="number" min="1" max="100" step="any" .value=${f.density}
              @input=${(e: Event) => this.#set('density', (e.target as HTMLInputElement).value)} />
          </label>`
        : html`<div class="field-row">
            <label class="field" title="Hubs plus authorities in each core">
              <span>Core size</span>
              <input id="communities-core-size" type="number" min="2" step="1" .value=${f.core_size}
                @input=${(e: Event) => this.#set('core_size', (e.target as HTMLInputElement).value)} />
            </label>
            <label class="field" title="Hubs, then authorities, added at each step of growing a core">
              <span>New members</span>
              <input id="communities-new-members" type="number" min="1" step="1" .value=${f.new_members}
                @input=${(e: Event) => this.#set('new_members', (e.target as HTMLInputElement).value)} />
            </label>
          </div>`}
      <label class="field" title="A core counts as a community only with at least this many hubs and this many authorities; one site and its out-links is no community">
        <span>Least hubs and authorities</span>
        <input id="communities-min-side" type="number" min="1" step="1" .value=${f.min_side}
          @input=${(e: Event) => this.#set('min_side', (e.target as HTMLInputElement).value)} />
      </label>
      ${alertBox(this.#run.error)}
      <div class="actions">
        <button type="submit" class="btn primary" id="communities-run" ?disabled=${this.#run.loading}>Run</button>
        ${spinner(this.#run.loading, 'Running')}
      </div>
    </form>`;
  }

  #renderURLs(kind: string, urls: string[]) {
    if (!urls.length) return html`<p class="muted small">No ${kind}.</p>`;
    return html`<details class="url-list" data-kind=${kind}>
      <summary>${int(urls.length)} ${kind}
        <span class="muted">${urls.slice(0, 3).map(siteOf).join(', ')}${urls.length > 3 ? ', …' : ''}</span></summary>
      <ul>
        ${urls.map((u) => html`<li><a href=${siteHref(siteOf(u))} title="Open ${siteOf(u)}">${u}</a></li>`)}
      </ul>
    </details>`;
  }

  #renderCore(c: Core) {
    const on = !this.unchecked.has(c.seed);
    const hubs = c.hubs ?? [];
    const auths = c.authorities ?? [];
    const site = c.site || siteOf(c.seed);
    return html`<li class="core ${on ? '' : 'off'}" data-core=${c.core} data-seed=${c.seed}
      @mouseenter=${() => (this.highlight = c.core)} @mouseleave=${() => (this.highlight = -2)}>
      <div class="core-head">
        <span class="swatch" style="background:${coreColour(c.core)}" aria-hidden="true"></span>
        <span class="core-name">${coreName(c.core)}</span>
        <label class="check seed-check" title=${on ? 'Selected for export: uncheck to leave it out' : 'Left out of the export'}>
          <input type="checkbox" class="seed-toggle" .checked=${on} @change=${(e: Event) => this.#toggle(c.seed, (e.target as HTMLInputElement).checked)} />
          <span class="seed-url">${c.seed}</span>
        </label>
        <a class="core-site" href=${siteHref(site)}>${site}</a>
      </div>
      <div class="core-stats">
        <span title="Share of hub→authority pairs that are linked">cover density <strong>${density(c.cover_density)}</strong></span>
        <span title="HITS hub score of the seed when its core was found">hub score <strong>${sig(c.hub_score)}</strong></span>
        <span>${int(hubs.length)} hubs · ${int(auths.length)} authorities</span>
      </div>
      <div class="core-lists">${this.#renderURLs('hubs', hubs)} ${this.#renderURLs('authorities', auths)}</div>
    </li>`;
  }

  #renderCores() {
    const cores = this.cores;
    if (cores === null) {
      return html`<section class="panel cores-panel"><h2>Cores</h2>
        <p class="empty big">Choose K and press Run to find the communities of this project's link graph.</p></section>`;
    }
    const p = session.params;
    return html`<section class="panel cores-panel">
      <h2>Cores <span class="count">${int(cores.length)} found${p ? ` · K ${p.count}, ${p.density !== undefined ? `density ${p.density}` : `size ${p.core_size}, ${p.new_members} new`}` : ''}</span></h2>
      ${cores.length === 0
        ? html`<p class="empty">No core found: the graph has no links between different sites yet. Crawl more pages first.</p>`
        : html`${p && cores.length < p.count
              ? html`<p class="muted small">Fewer cores than asked: no links are left outside the cores found.</p>`
              : nothing}
            <ol class="core-list">${cores.map((c) => this.#renderCore(c))}</ol>`}
    </section>`;
  }

  #renderSeeds() {
    const seeds = this.#seeds();
    const coreSeeds = (this.cores ?? []).length;
    const left = this.unchecked.size;
    return html`<section class="panel seeds-panel">
      <h2>Seed list <span class="count">${int(seeds.length)} ${seeds.length === 1 ? 'seed' : 'seeds'}</span></h2>
      <p class="muted small">
        ${coreSeeds ? html`${int(coreSeeds - left)} of ${int(coreSeeds)} core seeds checked` : 'No cores yet'}${this.added.length
          ? html`, ${int(this.added.length)} added by hand`
          : nothing}.
      </p>
      <form class="add-seed" @submit=${this.#onAdd} novalidate>
        <input id="seed-add" type="text" inputmode="url" spellcheck="false" autocomplete="off" placeholder="https://another.example/"
          .value=${this.addText} @input=${(e: Event) => {
            this.addText = (e.target as HTMLInputElement).value;
            this.addError = '';
          }} />
        <button type="submit" class="btn" id="seed-add-button">Add seed</button>
      </form>
      ${alertBox(this.addError)}
      ${this.added.length
        ? html`<ul class="added-seeds">
            ${this.added.map(
              (s) => html`<li data-seed=${s}><a href=${siteHref(siteOf(s))}>${s}</a>
                <button type="button" class="icon-btn" title="Remove ${s}" aria-label="Remove ${s}" @click=${() => this.#remove(s)}>×</button></li>`,
            )}
          </ul>`
        : nothing}
      <div class="actions export-actions">
        <span class="muted small">Export</span>
        ${(['txt', 'csv', 'json'] as ExportFormat[]).map(
          (f) => html`<button type="button" class="btn ${f === 'txt' ? 'primary' : ''}" data-export=${f}
            ?disabled=${!seeds.length || this.exporting !== ''} @click=${() => this.#export(f)}>${f}</button>`,
        )}
        ${spinner(!!this.exporting, 'Exporting')}
      </div>
      ${this.exportNote
        ? html`<p class="muted small export-note">Downloaded ${this.exportNote}
              <button type="button" class="btn small-btn" @click=${() => this.#copy()}>Copy</button> ${this.copied}</p>
            <details class="export-preview"><summary>Show the file</summary><pre class="preview">${this.exportText}</pre></details>`
        : nothing}
      ${alertBox(this.exportError)}
      <h3>Other exports</h3>
      <ul class="other-exports">
        <li><a id="export-heritrix" href=${api.heritrixURL()} download @click=${this.#downloads.click}>Heritrix precedence file</a>
          <span class="muted small">— every site's importance, for PreloadedUriPrecedencePolicy</span></li>
        <li><a id="export-ratings" href=${api.ratingsURL()} download @click=${this.#downloads.click}>Ratings CSV</a>
          <span class="muted small">— the sites with the librarians' ratings beside them</span></li>
        <li><a href="#/export">Seeds by importance</a> <span class="muted small">— the K most important sites</span></li>
      </ul>
      ${this.#downloads.note()}
    </section>`;
  }

  #renderGraph() {
    const g = this.graph;
    if (this.cores === null) return nothing;
    const n = g?.nodes?.length ?? 0;
    const inCores = (g?.nodes ?? []).filter((x) => x.core >= 0).length;
    const seedSites = (this.cores ?? []).map((c) => c.site || siteOf(c.seed));
    return html`<section class="panel graph-panel">
      <h2>
        Site graph
        <span class="count">${n
          ? `${g?.total_sites && g.total_sites > n ? `${int(n)} most important of ${int(g.total_sites)} sites` : `${int(n)} sites`} · ${int(inCores)} in cores`
          : ''}</span>
        <span class="spacer"></span>
        ${n ? html`<button type="button" class="btn small-btn" @click=${() => this.querySelector('ss-site-graph')?.fit()}>Fit</button>` : nothing}
      </h2>
      ${alertBox(this.graphError)}
      ${n
        ? html`<ss-site-graph .graph=${g} .labelled=${seedSites} .highlight=${this.highlight}></ss-site-graph>
            <div class="legend">
              ${(this.cores ?? []).map(
                (c) => html`<span class="legend-item" @mouseenter=${() => (this.highlight = c.core)} @mouseleave=${() => (this.highlight = -2)}>
                  <span class="swatch" style="background:${coreColour(c.core)}"></span>${coreName(c.core)}</span>`,
              )}
              <span class="legend-item"><span class="swatch" style="background:${coreColour(-1)}"></span>no core</span>
              <span class="muted small">Size: OPIC. Hover a site for its name; click to open it.</span>
            </div>`
        : this.graphError
          ? nothing
          : html`<p class="empty">No sites to draw yet.</p>`}
    </section>`;
  }

  override render() {
    return html`
      <div class="toolbar"><h1>Communities</h1><span class="muted">Seeds from hub-and-authority communities (Daneshpajouh et al.)</span></div>
      <div class="communities-layout">
        <div class="communities-side">${this.#renderForm()} ${this.#renderSeeds()}</div>
        <div class="communities-main">${this.#renderGraph()} ${this.#renderCores()}</div>
      </div>
    `;
  }
}

customElements.define('ss-communities', CommunitiesView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-communities': CommunitiesView;
  }
}
