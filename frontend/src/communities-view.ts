// ss-communities: seed lists from HITS communities, kept as collections.
// The librarian picks the extractor (cover density, or fixed core size) and
// runs it; the run is saved at once as a collection (a named seed list of
// the project) with its bipartite cores — each with its seed, the home page
// of a hub site, a topic label and a name — and a picture of the site graph
// coloured by core. Every edit (a seed unchecked or added by hand, a name)
// is saved as it is made, so a reload, or another day, shows the same list.

import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { message, type CommunityParams } from './api';
import { LightElement } from './base';
import {
  collectionsApi,
  type Collection,
  type CollectionCommunity,
  type CollectionSummary,
  type SeedFile,
} from './collections-api';
import { Downloads } from './download';
import { EXPLAIN, RawController, rawSharesOn } from './explainer';
import { date, int, score, sig } from './format';
import { alertBox, Loader, spinner } from './loader';
import { siteHref } from './router';
import { coreColour } from './site-graph';
import { librarian } from './state';
import './site-graph';
import './communities-view.css';

type Mode = 'density' | 'size';

interface Form {
  count: string;
  mode: Mode;
  density: string;
  core_size: string;
  new_members: string;
  min_side: string;
}

const DEFAULT_FORM: Form = { count: '10', mode: 'density', density: '100', core_size: '10', new_members: '1', min_side: '2' };

/** session keeps the collection open while the user visits other pages: coming back opens it again. */
const session: { open: number } = { open: 0 };

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

function formFromParams(p: URLSearchParams | CommunityParams): Form {
  const f = { ...DEFAULT_FORM };
  const get = (k: string): string | null => {
    const v = p instanceof URLSearchParams ? p.get(k) : (p as unknown as Record<string, unknown>)[k];
    return v === undefined || v === null || v === 0 ? null : String(v);
  };
  const pos = (k: string) => {
    const v = get(k);
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
  if (!Number.isInteger(min) || min < 1) return 'Least hub and authority sites must be a whole number ≥ 1.';
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

/** settingsText describes a collection's extraction: "K 10, density 100". */
/** fewerReason is why a run found fewer cores than asked, as the server recorded it; nothing when it did not. */
function fewerReason(ended: Collection['params']['ended']): string {
  switch (ended) {
    case 'no_links':
      return ': no links were left outside the cores found';
    case 'small_cores':
      return ': the links left outside the cores found make no core with enough hub sites and authority sites (2 of each by default)';
    default:
      return '';
  }
}

function settingsText(p: Collection['params']): string {
  if (!p) return '';
  return `K ${p.count}, ${p.core_size ? `size ${p.core_size}, ${p.new_members ?? 1} new` : `density ${p.density}`}`;
}

/** SEED_FILES are the formats a collection's seed list downloads in. */
const SEED_FILES: { file: SeedFile; label: string }[] = [
  { file: 'seeds.txt', label: 'txt' },
  { file: 'seeds.csv', label: 'csv' },
  { file: 'seeds.json', label: 'json' },
];

export class CommunitiesView extends LightElement {
  static override properties = {
    params: { attribute: false },
    form: { state: true },
    collection: { state: true },
    list: { state: true },
    addText: { state: true },
    addError: { state: true },
    editError: { state: true },
    saving: { state: true },
    renaming: { state: true },
    confirmDelete: { state: true },
    highlight: { state: true },
  };

  declare params: URLSearchParams;
  declare form: Form;
  /** collection is the collection open, null when none is. */
  declare collection: Collection | null;
  declare list: CollectionSummary[];
  declare addText: string;
  declare addError: string;
  /** editError is why the last edit was refused; the page shows the collection as the server holds it. */
  declare editError: string;
  /** saving counts the edits sent and not answered yet. */
  declare saving: number;
  /** renaming is the collection name being typed, null when not renaming. */
  declare renaming: string | null;
  declare confirmDelete: boolean;
  declare highlight: number;

  /** run is the extractor's last run; its error is also the form's. */
  #run = new Loader<Collection>(this);
  /** opening loads a saved collection. */
  #opening = new Loader<Collection>(this);
  #listing = new Loader<CollectionSummary[]>(this);
  /** rawShares re-renders the page when the raw shares are shown or hidden. */
  protected readonly rawShares = new RawController(this);
  /** downloads saves the export links' files in the desktop window, where a link alone saves nothing. */
  #downloads = new Downloads(this);
  /** edits go out one after another, in the order made, so the last one wins. */
  #edits: Promise<unknown> = Promise.resolve();

  constructor() {
    super();
    this.params = new URLSearchParams();
    this.form = { ...DEFAULT_FORM };
    this.collection = null;
    this.list = [];
    this.addText = '';
    this.addError = '';
    this.editError = '';
    this.saving = 0;
    this.renaming = null;
    this.confirmDelete = false;
    this.highlight = -2;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.form = formFromParams(this.params);
    void this.#loadList();
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('params')) {
      // The address wins (a bookmark, a reload); else the collection open before in this session.
      const id = Number(this.params.get('collection') ?? '') || session.open;
      if (id && id !== this.collection?.id) void this.#open(id);
    }
  }

  async #loadList(): Promise<void> {
    await this.#listing.run(async (signal) => (await collectionsApi.list(signal)) ?? []);
    this.list = this.#listing.value ?? [];
  }

  /** #show makes c the collection open, in the page and in the address. */
  #show(c: Collection): void {
    this.collection = c;
    session.open = c.id;
    const hash = `#/communities?collection=${c.id}`;
    if (location.hash !== hash) history.replaceState(history.state, '', hash);
  }

  async #open(id: number): Promise<void> {
    this.editError = '';
    this.confirmDelete = false;
    this.renaming = null;
    const got = await this.#opening.run((signal) => collectionsApi.get(id, signal));
    const c = this.#opening.value;
    if (got === 'done' && c) {
      this.#show(c);
      this.form = formFromParams(c.params);
    } else if (got === 'failed') {
      if (session.open === id) session.open = 0;
      this.collection = null;
    }
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
    const who = await librarian.require();
    if (!who) {
      this.#run.error = 'A collection is saved under a librarian name: choose one to run.';
      return;
    }
    this.#run.error = '';
    const got = await this.#run.run((signal) => collectionsApi.create(p, who, signal));
    const c = this.#run.value;
    if (got !== 'done' || !c) return;
    this.editError = '';
    this.renaming = null;
    this.confirmDelete = false;
    this.#show(c);
    void this.#loadList();
  };

  /**
   * #edit sends one edit of the open collection after those before it, and
   * shows the collection the server answers with; a refused edit shows why,
   * and the collection as the server still holds it.
   */
  #edit(send: (id: number) => Promise<Collection>): Promise<boolean> {
    const c = this.collection;
    if (!c) return Promise.resolve(false);
    this.saving++;
    const done = this.#edits.then(async () => {
      try {
        const next = await send(c.id);
        if (this.collection?.id === c.id) this.collection = this.#keepGraph(next);
        this.editError = '';
        return true;
      } catch (err) {
        this.editError = message(err);
        if (this.collection?.id === c.id) {
          // Redraw from what the server holds: a checkbox clicked must not stay in the state refused.
          try {
            this.collection = this.#keepGraph(await collectionsApi.get(c.id));
          } catch {
            this.collection = { ...this.collection };
          }
        }
        return false;
      } finally {
        this.saving--;
      }
    });
    this.#edits = done;
    void done.then(() => this.#loadList());
    return done;
  }

  /**
   * #keepGraph gives an edited collection the picture already drawn: a
   * collection's picture never changes once saved, and a new object would
   * make the graph lay itself out again after every edit.
   */
  #keepGraph(next: Collection): Collection {
    const cur = this.collection;
    return cur && cur.id === next.id ? { ...next, graph: cur.graph } : next;
  }

  #toggle(k: CollectionCommunity, on: boolean): void {
    // Shown at once as clicked: a redraw before the server answers (the
    // saving count changes) must not put the box back. The answer, or when
    // refused what the server holds, redraws it.
    const c = this.collection;
    if (c) this.collection = { ...c, communities: (c.communities ?? []).map((x) => (x.core === k.core ? { ...x, kept: on } : x)) };
    void this.#edit((id) => collectionsApi.editCommunity(id, k.core, { kept: on }));
  }

  #renameCommunity(k: CollectionCommunity, input: HTMLInputElement): void {
    const name = input.value.trim();
    if (name === k.name) return;
    if (!name) {
      this.editError = 'A community needs a name.';
      input.value = k.name;
      return;
    }
    void this.#edit((id) => collectionsApi.editCommunity(id, k.core, { name }));
  }

  #onAdd = async (ev: Event) => {
    ev.preventDefault();
    const r = normalizeSeed(this.addText);
    if (typeof r !== 'string') {
      this.addError = r.error;
      return;
    }
    if ((this.collection?.added ?? []).some((s) => s.url === r)) {
      this.addError = 'That seed is in the list already.';
      return;
    }
    const ok = await this.#edit((id) => collectionsApi.addSeed(id, r));
    if (ok) {
      this.addText = '';
      this.addError = '';
    } else {
      this.addError = this.editError;
      this.editError = '';
    }
  };

  #removeSeed(url: string): void {
    void this.#edit((id) => collectionsApi.removeSeed(id, url));
  }

  async #rename(ev: Event): Promise<void> {
    ev.preventDefault();
    const name = (this.renaming ?? '').trim();
    if (!name) {
      this.editError = 'A collection needs a name.';
      return;
    }
    if (await this.#edit((id) => collectionsApi.rename(id, name))) this.renaming = null;
  }

  async #delete(): Promise<void> {
    const c = this.collection;
    if (!c) return;
    try {
      await collectionsApi.remove(c.id);
      this.collection = null;
      this.confirmDelete = false;
      session.open = 0;
      history.replaceState(history.state, '', '#/communities');
      await this.#loadList();
    } catch (err) {
      this.editError = message(err);
    }
  }

  /** #seedCount is the number of seeds the open collection exports. */
  #seedCount(): number {
    const c = this.collection;
    if (!c) return 0;
    return (c.communities ?? []).filter((k) => k.kept && k.seed).length + (c.added ?? []).length;
  }

  #renderForm() {
    const f = this.form;
    const density = f.mode === 'density';
    return html`<form class="panel form communities-form" novalidate @submit=${this.#onRun}>
      <h2>Find communities</h2>
      <p class="muted small">
        HITS ranks hub and authority sites on the site graph (a link between two sites counts once, however many pages
        carry it); the best bipartite core of sites (hub sites all linking to the same authority sites, 2 of each at
        least) is taken out, the home page of its best hub site becomes a seed, and the search repeats on what is left —
        one seed per community, one per site. Each run is saved as a new collection.
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
      <label class="field" title="A core counts as a community only with at least this many hub sites and this many authority sites; one site and its out-links is no community">
        <span>Least hub and authority sites</span>
        <input id="communities-min-side" type="number" min="1" step="1" .value=${f.min_side}
          @input=${(e: Event) => this.#set('min_side', (e.target as HTMLInputElement).value)} />
      </label>
      ${alertBox(this.#run.error)}
      <div class="actions">
        <button type="submit" class="btn primary" id="communities-run" ?disabled=${this.#run.loading}>Run and save</button>
        ${spinner(this.#run.loading, 'Running')}
      </div>
    </form>`;
  }

  #renderList() {
    const open = this.collection?.id ?? 0;
    return html`<section class="panel collections-panel">
      <h2>Saved collections <span class="count">${int(this.list.length)}</span></h2>
      ${alertBox(this.#listing.error)}
      ${this.list.length
        ? html`<ul class="collection-list">
            ${this.list.map(
              (s) => html`<li class="${s.id === open ? 'open' : ''}" data-collection=${s.id}>
                <a href="#/communities?collection=${s.id}" @click=${(e: Event) => {
                  e.preventDefault();
                  void this.#open(s.id);
                }}>${s.name}</a>
                <span class="muted small">${int(s.kept + s.added)} seeds · ${s.created_by} · ${date(s.updated_at)}</span>
              </li>`,
            )}
          </ul>`
        : html`<p class="muted small">None yet: every run is saved here.</p>`}
    </section>`;
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

  /**
   * #hubRelative is a community's hub score as 0–100 of the highest in its
   * collection, the rule the service applies to every score it shows
   * (README, "Reading the numbers"); a collection stores the raw scores.
   */
  #hubRelative(k: CollectionCommunity): number {
    const top = Math.max(0, ...(this.collection?.communities ?? []).map((c) => c.hub_score || 0));
    return top > 0 ? Math.round((100 * (k.hub_score || 0)) / top) : 0;
  }

  #renderCore(k: CollectionCommunity) {
    const on = k.kept && !!k.seed;
    const hubs = k.hubs ?? [];
    const auths = k.authorities ?? [];
    return html`<li class="core ${on ? '' : 'off'}" data-core=${k.core} data-seed=${k.seed}
      @mouseenter=${() => (this.highlight = k.core)} @mouseleave=${() => (this.highlight = -2)}>
      <div class="core-head">
        <span class="swatch" style="background:${coreColour(k.core)}" aria-hidden="true"></span>
        <input class="core-name" type="text" aria-label="Name of community ${k.core + 1}" .value=${live(k.name)}
          maxlength="120" title="Rename the community: saved when you leave the field or press Enter"
          @change=${(e: Event) => this.#renameCommunity(k, e.target as HTMLInputElement)}
          @keydown=${(e: KeyboardEvent) => {
            if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          }} />
        ${k.topic && k.topic !== k.name ? html`<span class="topic muted small" title="Topic: key phrases of its sites' main text, in their languages">${k.topic}</span>` : nothing}
      </div>
      <div class="core-seed">
        ${k.seed
          ? html`<label class="check seed-check" title=${on ? 'Selected for export: uncheck to leave it out' : 'Left out of the export'}>
                <input type="checkbox" class="seed-toggle" .checked=${live(on)}
                  @change=${(e: Event) => this.#toggle(k, (e.target as HTMLInputElement).checked)} />
                <span class="seed-url">${k.seed}</span>
              </label>
              <a class="core-site" href=${siteHref(k.site)}>${k.site}</a>`
          : html`<span class="muted small">No seed: each of its hub sites already gives another community its seed.</span>`}
      </div>
      <div class="core-stats">
        ${k.from_hub ? html`<span title="The page of the hub site the seed is made from">from <a href=${siteHref(k.site)}>${k.from_hub}</a></span>` : nothing}
        <span title="Share of hub→authority pairs that are linked">cover density <strong>${density(k.cover_density)}</strong></span>
        ${this.collection?.params?.off_main_eigenvector?.includes(k.core)
          ? html`<span class="hub-score-none" title="This community was found after the stronger ones were taken out of the graph: its hub score is next to nothing and says nothing of how good a hub its seed is, so none is shown">hub score: not comparable</span>`
          : k.hub_score
          ? html`<span title="HITS hub score of the seed's hub when its core was found, as 0–100 of the highest of this run (raw ${sig(k.hub_score)})"
              data-hub-relative=${this.#hubRelative(k)}>hub score <strong>${score(this.#hubRelative(k))}</strong>${
                rawSharesOn() ? html` <span class="raw-share">${sig(k.hub_score)}</span>` : nothing}</span>`
          : nothing}
        <span>${int(hubs.length)} hub sites · ${int(auths.length)} authority sites</span>
      </div>
      <div class="core-lists">${this.#renderURLs('hubs', hubs)} ${this.#renderURLs('authorities', auths)}</div>
    </li>`;
  }

  #renderHead() {
    const c = this.collection;
    if (!c) return nothing;
    return html`<section class="panel collection-head">
      ${this.renaming !== null
        ? html`<form class="rename" @submit=${(e: Event) => this.#rename(e)}>
            <input id="collection-name" type="text" maxlength="120" aria-label="Collection name" .value=${this.renaming}
              @input=${(e: Event) => (this.renaming = (e.target as HTMLInputElement).value)} />
            <button type="submit" class="btn primary" id="collection-rename-save">Save</button>
            <button type="button" class="btn" @click=${() => (this.renaming = null)}>Cancel</button>
          </form>`
        : html`<h2>
            <span class="collection-title">${c.name}</span>
            <span class="spacer"></span>
            <button type="button" class="btn small-btn" id="collection-rename" @click=${() => (this.renaming = c.name)}>Rename</button>
            ${this.confirmDelete
              ? html`<span class="small">Delete it?</span>
                  <button type="button" class="btn small-btn danger" id="collection-delete-yes" @click=${() => this.#delete()}>Delete</button>
                  <button type="button" class="btn small-btn" @click=${() => (this.confirmDelete = false)}>Keep</button>`
              : html`<button type="button" class="btn small-btn" id="collection-delete" @click=${() => (this.confirmDelete = true)}>Delete…</button>`}
          </h2>`}
      <p class="muted small">
        Made by <strong>${c.created_by}</strong> on ${date(c.created_at)} · ${settingsText(c.params)} · edited ${date(c.updated_at)}
        ${this.saving ? html` · <span class="saving">saving…</span>` : html` · <span class="saved">saved</span>`}
      </p>
      ${alertBox(this.editError)}
    </section>`;
  }

  #renderCores() {
    const c = this.collection;
    if (!c) {
      return html`<section class="panel cores-panel"><h2>Cores</h2>
        ${this.#opening.loading
          ? spinner(true, 'Opening')
          : html`${alertBox(this.#opening.error)}
              <p class="empty big" id="communities-empty">Choose K and press Run and save to find the communities of this project's link graph, or open a saved collection.</p>`}
      </section>`;
    }
    const cores = c.communities ?? [];
    return html`<section class="panel cores-panel">
      <h2>Cores <span class="count">${int(cores.length)} found</span></h2>
      ${cores.length === 0
        ? html`<p class="empty">No core found: the graph had no links between different sites. Crawl more pages first.</p>`
        : html`${c.params && cores.length < c.params.count
              ? html`<p class="muted small">Fewer cores than asked${fewerReason(c.params.ended)}.</p>`
              : nothing}
            <ol class="core-list">${cores.map((k) => this.#renderCore(k))}</ol>`}
    </section>`;
  }

  #renderSeeds() {
    const c = this.collection;
    if (!c) return nothing;
    const n = this.#seedCount();
    const cores = (c.communities ?? []).filter((k) => k.seed);
    const kept = cores.filter((k) => k.kept).length;
    const added = c.added ?? [];
    return html`<section class="panel seeds-panel">
      <h2>Seed list <span class="count">${int(n)} ${n === 1 ? 'seed' : 'seeds'}</span></h2>
      <p class="muted small">
        ${cores.length ? html`${int(kept)} of ${int(cores.length)} core seeds checked` : 'No core seeds'}${added.length
          ? html`, ${int(added.length)} added by hand`
          : nothing}. One seed a site.
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
      ${added.length
        ? html`<ul class="added-seeds">
            ${added.map(
              (s) => html`<li data-seed=${s.url}><a href=${siteHref(s.site)}>${s.url}</a>
                <button type="button" class="icon-btn" title="Remove ${s.url}" aria-label="Remove ${s.url}" @click=${() => this.#removeSeed(s.url)}>×</button></li>`,
            )}
          </ul>`
        : nothing}
      <div class="actions export-actions">
        <span class="muted small">Export</span>
        ${SEED_FILES.map(
          (f) => html`<a class="btn ${f.label === 'txt' ? 'primary' : ''}" data-export=${f.label} download=${f.file}
            href=${collectionsApi.fileURL(c.id, f.file)} @click=${this.#downloads.click}>${f.label}</a>`,
        )}
      </div>
      <p class="muted small">txt: one URL a line, for Heritrix or Browsertrix; CSV and JSON add each seed's community, topic, site, hub
        score and whether it was added by hand.</p>
      ${this.#downloads.note()}
      <p class="other-exports small"><a id="export-page" href="#/export">The Export page</a> has every other file: the approved
        selection, the top sites by importance, the ratings, the sites table and the Heritrix precedence file.</p>
    </section>`;
  }

  #renderGraph() {
    const c = this.collection;
    if (!c) return nothing;
    const g = c.graph;
    const n = g?.nodes?.length ?? 0;
    const inCores = (g?.nodes ?? []).filter((x) => x.core >= 0).length;
    const cores = c.communities ?? [];
    const seedSites = cores.filter((k) => k.site).map((k) => k.site);
    return html`<section class="panel graph-panel">
      <h2>
        Site graph
        <span class="count">${n
          ? `${g?.total_sites && g.total_sites > n ? `${int(n)} most important of ${int(g.total_sites)} sites` : `${int(n)} sites`} · ${int(inCores)} in cores · as saved`
          : ''}</span>
        <span class="spacer"></span>
        ${n ? html`<button type="button" class="btn small-btn" @click=${() => this.querySelector('ss-site-graph')?.fit()}>Fit</button>` : nothing}
      </h2>
      ${n
        ? html`<ss-site-graph .graph=${g} .labelled=${seedSites} .highlight=${this.highlight}></ss-site-graph>
            <div class="legend">
              ${cores.map(
                (k) => html`<span class="legend-item" @mouseenter=${() => (this.highlight = k.core)} @mouseleave=${() => (this.highlight = -2)}>
                  <span class="swatch" style="background:${coreColour(k.core)}"></span>${k.name}</span>`,
              )}
              <span class="legend-item"><span class="swatch" style="background:${coreColour(-1)}"></span>no core</span>
              <span class="muted small">Size: OPIC. Hover a site for its name; click to open it.</span>
            </div>`
        : html`<p class="empty">No sites to draw.</p>`}
    </section>`;
  }

  override render() {
    return html`
      <div class="toolbar"><h1>Communities</h1><span class="muted">Seeds from hub-and-authority communities (Daneshpajouh et al.)</span></div>
      <ss-explainer raw .text=${EXPLAIN.hub}></ss-explainer>
      <div class="communities-layout">
        <div class="communities-side">${this.#renderForm()} ${this.#renderList()} ${this.#renderSeeds()}</div>
        <div class="communities-main">${this.#renderHead()} ${this.#renderGraph()} ${this.#renderCores()}</div>
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
