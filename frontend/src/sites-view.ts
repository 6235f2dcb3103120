// ss-sites: the sites table — server-side sort, filter and paging, keyboard
// selection and rating, refreshed while a crawl runs.

import { html, nothing } from 'lit';
import { api, message, SITE_CRAWL_STATUSES, type Order, type SiteCrawlStatus, type SiteList, type SiteRow, type SortKey } from './api';
import { LightElement } from './base';
import { crawlStatusBadge, isSiteCrawlStatus, STATUS_INFO } from './crawl-health';
import { EXPLAIN, rawShares } from './explainer';
import { int, rank, score, share, tiedRank, tiedTitle } from './format';
import { hasModifier, isTyping, windowKeys } from './keys';
import { alertBox, Loader, spinner } from './loader';
import { projectData } from './project-events';
import { href, navigate, siteHref } from './router';
import { ACTIVE_STATES, crawlFeed, librarian, ratingsSettled, writeRating } from './state';
import './rating-legend';
import './rank-basis';
import './sites-view.css';
import { archiveCells, archiveFilter, archiveHeaders, type ArchiveShown } from './archive-cells';
import { isSitesPlatforms, PLATFORM_NOTE, platformBadge, platformControls, platformsQuery, type SitesPlatforms } from './platforms';

const PAGE_SIZE = 50;
const REFRESH_MS = 2000;
const SORT_KEYS: SortKey[] = ['opic', 'pagerank', 'pages', 'in_sites', 'out_sites', 'site', 'rating'];

interface Column {
  key: SortKey | null;
  label: string;
  cls: string;
  title: string;
  /** health marks the columns of the crawl status, shown only when the server sends it. */
  health?: boolean;
}

const COLUMNS: Column[] = [
  { key: null, label: 'Rank', cls: 'col-rank num', title: 'Importance rank among all sites: 1 is the most linked; sites of equal importance share a rank, marked =' },
  { key: 'site', label: 'Site', cls: 'col-site', title: 'Host name (with port when not the default)' },
  { key: null, label: 'Status', cls: 'col-crawl-status', title: 'How fetching the site went (hover a status for its meaning)', health: true },
  { key: 'opic', label: 'Importance', cls: 'col-opic num', title: 'Importance (OPIC at its fixpoint over the links found) as 0–100: the top site is 100, a site half as linked 50' },
  { key: 'pagerank', label: 'PageRank', cls: 'col-pagerank num', title: 'PageRank of the site graph as 0–100 of the top site’s' },
  { key: 'pages', label: 'Pages', cls: 'num', title: 'Pages crawled on this site (with a status: fetched fine)' },
  { key: null, label: 'Errors', cls: 'col-errors num', title: 'Fetches that failed or answered 4xx/5xx', health: true },
  { key: 'in_sites', label: 'In-sites', cls: 'num', title: 'Other sites linking to this one' },
  { key: 'out_sites', label: 'Out-sites', cls: 'num', title: 'Other sites this one links to' },
  { key: 'rating', label: 'Rating', cls: 'col-rating', title: 'Your rating, 1–4 (keys 1–4; 0 clears)' },
];

export class SitesView extends LightElement {
  static override properties = {
    params: { attribute: false },
    librarian: { type: String },
    sel: { state: true },
    filterText: { state: true },
  };

  declare params: URLSearchParams;
  declare librarian: string;
  /** sel is the index of the selected row on this page, -1 for none. */
  declare sel: number;
  declare filterText: string;

  #sites = new Loader<SiteList>(this);
  #filterTimer: number | undefined;
  #librarianTimer: number | undefined;
  #lastLoad = 0;
  #wasActive = false;
  #scrollToSel = false;
  /** selSite keeps the selection on the same site across reloads that reorder rows. */
  #selSite = '';
  /** hasHealth is set once the server has sent a crawl status: older servers send none, and then its columns and filter stay hidden. */
  #hasHealth = false;
  /** hasArchive is set once the server has sent what an imported archive holds of a site: its column and filter are shown from then on. */
  #hasArchive = false;

  constructor() {
    super();
    windowKeys(this, this.#onKey);
    this.params = new URLSearchParams();
    this.librarian = '';
    this.sel = -1;
    this.filterText = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    crawlFeed.addEventListener('status', this.#onCrawl);
    rawShares.addEventListener('change', this.#onRaw);
    projectData.addEventListener('change', this.#onProjectData);
    this.#wasActive = crawlFeed.status !== null && ACTIVE_STATES.has(crawlFeed.status.state);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    crawlFeed.removeEventListener('status', this.#onCrawl);
    rawShares.removeEventListener('change', this.#onRaw);
    projectData.removeEventListener('change', this.#onProjectData);
    window.clearTimeout(this.#filterTimer);
    window.clearTimeout(this.#librarianTimer);
  }

  get sort(): SortKey {
    const s = this.params.get('sort') as SortKey | null;
    return s && SORT_KEYS.includes(s) ? s : 'opic';
  }

  get order(): Order {
    const o = this.params.get('order');
    if (o === 'asc' || o === 'desc') return o;
    return this.sort === 'site' ? 'asc' : 'desc';
  }

  get offset(): number {
    const n = Number(this.params.get('offset') ?? 0);
    return Number.isInteger(n) && n > 0 ? n : 0;
  }

  get q(): string {
    return this.params.get('q') ?? '';
  }

  /** status is the crawl status the table is filtered by, '' for all. */
  get status(): SiteCrawlStatus | '' {
    const s = this.params.get('status');
    return isSiteCrawlStatus(s) ? s : '';
  }

  /** archived is the archive filter: 'yes' (sites the archive holds), 'no' (those it does not) or '' (all). */
  get archived(): '' | 'yes' | 'no' {
    const a = this.params.get('archived');
    return a === 'yes' || a === 'no' ? a : '';
  }

  /** platforms is the platform view: hidden (''), shown among the others ('show') or alone ('only'). */
  get platforms(): SitesPlatforms {
    const p = this.params.get('platforms');
    return isSitesPlatforms(p) ? p : '';
  }

  /** showHealth says whether the crawl status columns and filter are shown. */
  get #showHealth(): boolean {
    return this.#hasHealth || this.status !== '';
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('params')) {
      const prev = changed.get('params') as URLSearchParams | undefined;
      if (!prev || prev.get('q') !== this.q) {
        // Follow the URL (back button, links) unless the user is typing in the box.
        const box = this.querySelector('#site-filter');
        if (document.activeElement !== box) this.filterText = this.q;
      }
    }
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('params')) {
      const prev = changed.get('params') as URLSearchParams | undefined;
      if (!prev || prev.toString() !== this.params.toString()) void this.#load(false);
    } else if (changed.has('librarian') && changed.get('librarian') !== undefined) {
      // Ratings are per librarian; wait until the name stops changing.
      window.clearTimeout(this.#librarianTimer);
      this.#librarianTimer = window.setTimeout(() => void this.#load(true), 300);
    }
    if (this.#scrollToSel) {
      this.#scrollToSel = false;
      this.querySelector('tr.selected')?.scrollIntoView({ block: 'nearest' });
    }
  }

  async #load(silent: boolean): Promise<void> {
    this.#lastLoad = Date.now();
    const got = await this.#sites.run(async (signal) => {
      // Never read back older ratings than the user just set.
      await ratingsSettled();
      return api.sites(
        { sort: this.sort, order: this.order, q: this.q, status: this.status, offset: this.offset, limit: PAGE_SIZE, librarian: this.librarian,
          archived: this.archived, platforms: platformsQuery(this.platforms) },
        signal,
      );
    }, { silent });
    if (got !== 'done') return;
    const rows = this.#sites.value?.rows ?? [];
    if (rows.some((r) => r.crawl_status !== undefined)) this.#hasHealth = true;
    if (Object.keys(this.#sites.value?.archive ?? {}).length) this.#hasArchive = true;
    const keep = this.#selSite ? rows.findIndex((r) => r.site === this.#selSite) : -1;
    // Stay on the same site when it is still shown; a refresh keeps the position, a new page starts at the top.
    this.#select(keep >= 0 ? keep : silent ? this.sel : 0, false);
  }

  #onRaw = () => this.requestUpdate();

  /** onProjectData shows the sites an import added or re-ranked, on the same page. */
  #onProjectData = () => void this.#load(true);

  #onCrawl = () => {
    const s = crawlFeed.status;
    const active = s !== null && ACTIVE_STATES.has(s.state);
    const ended = this.#wasActive && !active;
    this.#wasActive = active;
    if (ended || (active && Date.now() - this.#lastLoad >= REFRESH_MS && !this.#sites.busy)) void this.#load(true);
  };

  #go(changes: Record<string, string | number | null>, replace = true): void {
    const p: Record<string, string | number | null> = {
      sort: this.params.get('sort'),
      order: this.params.get('order'),
      q: this.q,
      status: this.status || null,
      archived: this.archived || null,
      platforms: this.platforms || null,
      offset: this.offset || null,
      ...changes,
    };
    navigate(href('/sites', p), replace);
  }

  #sortBy(key: SortKey): void {
    let order: Order;
    if (key === this.sort) order = this.order === 'asc' ? 'desc' : 'asc';
    else order = key === 'site' ? 'asc' : 'desc';
    this.#go({ sort: key, order, offset: null });
  }

  #onFilter = (ev: Event) => {
    this.filterText = (ev.target as HTMLInputElement).value;
    window.clearTimeout(this.#filterTimer);
    this.#filterTimer = window.setTimeout(() => this.#go({ q: this.filterText.trim(), offset: null }), 250);
  };

  #onStatus = (ev: Event) => {
    this.#go({ status: (ev.target as HTMLSelectElement).value || null, offset: null });
  };

  #select(i: number, scroll = true): void {
    const rows = this.#sites.value?.rows ?? [];
    if (rows.length === 0) {
      this.sel = -1;
      this.#selSite = '';
      return;
    }
    this.sel = Math.max(0, Math.min(i, rows.length - 1));
    this.#selSite = rows[this.sel]!.site;
    this.#scrollToSel = scroll;
  }

  #onKey = (ev: KeyboardEvent) => {
    if (hasModifier(ev) || isTyping(ev) || document.querySelector('.modal')) return;
    const rows = this.#sites.value?.rows ?? [];
    const row = this.sel >= 0 ? rows[this.sel] : undefined;
    switch (ev.key) {
      case 'j':
      case 'ArrowDown':
        ev.preventDefault();
        this.#select(this.sel + 1);
        return;
      case 'k':
      case 'ArrowUp':
        ev.preventDefault();
        this.#select(this.sel - 1);
        return;
      case 'Enter':
        // Enter on a focused link or button keeps its own meaning.
        if (row && !(ev.target instanceof HTMLAnchorElement || ev.target instanceof HTMLButtonElement)) {
          ev.preventDefault();
          navigate(siteHref(row.site));
        }
        return;
      case '1':
      case '2':
      case '3':
      case '4':
        if (row) {
          ev.preventDefault();
          void this.#rate(row.site, Number(ev.key));
        }
        return;
      case '0':
      case 'Backspace':
        if (row) {
          ev.preventDefault();
          void this.#rate(row.site, null);
        }
        return;
    }
  };

  #setRating(site: string, rating: number | null): void {
    const d = this.#sites.value;
    if (!d) return;
    this.#sites.value = { ...d, rows: (d.rows ?? []).map((r) => (r.site === site ? { ...r, rating } : r)) };
  }

  async #rate(site: string, rating: number | null): Promise<void> {
    const name = await librarian.require();
    if (!name) return;
    const before = this.#sites.value?.rows?.find((r) => r.site === site)?.rating ?? null;
    if (before === rating) return;
    this.#setRating(site, rating);
    try {
      await writeRating(site, name, rating);
      this.#sites.error = '';
    } catch (err) {
      this.#setRating(site, before);
      this.#sites.error = `Rating ${site}: ${message(err)}`;
    }
  }

  #renderHeader(c: Column) {
    if (!c.key) return html`<th class=${c.cls} scope="col" title=${c.title}>${c.label}</th>`;
    const key = c.key;
    const active = key === this.sort;
    const aria = active ? (this.order === 'asc' ? 'ascending' : 'descending') : 'none';
    return html`<th class="${c.cls} sortable ${active ? 'sorted' : ''}" scope="col" aria-sort=${aria} title=${c.title}>
      <button type="button" data-sort=${key} @click=${() => this.#sortBy(key)}>
        <span class="sort-label">${c.label}</span><span class="sort-arrow" aria-hidden="true">${active ? (this.order === 'asc' ? '▲' : '▼') : ''}</span>
      </button>
    </th>`;
  }

  #renderRow(r: SiteRow, i: number, health: boolean) {
    const selected = i === this.sel;
    const w = r.opic_score ? Math.max(1, r.opic_score) : 0;
    const raw = rawShares.on;
    return html`<tr data-site=${r.site} class=${selected ? 'selected' : ''} aria-selected=${selected ? 'true' : 'false'}
      @click=${() => this.#select(i, false)} @dblclick=${() => navigate(siteHref(r.site))}>
      <td class="col-rank num" data-rank=${r.opic_rank ?? ''} data-ties=${r.opic_ties ?? 0} title=${tiedTitle(r.opic_ties)}>${tiedRank(r.opic_rank, r.opic_ties)}</td>
      <td class="col-site"><a href=${siteHref(r.site)}>${r.site}</a>${platformBadge(r.platform)}</td>
      ${health ? html`<td class="col-crawl-status" data-crawl-status=${r.crawl_status ?? ''}>${crawlStatusBadge(r.crawl_status)}</td>` : nothing}
      <td class="col-opic num" data-score=${r.opic_score ?? ''}>
        <span class="bar-cell"><span class="bar" style="width:${w}%"></span></span><span class="v">${score(r.platform ? undefined : r.opic_score)}</span>
        ${raw ? html`<span class="raw-share" data-share=${r.opic}>${share(r.opic)}</span>` : nothing}
      </td>
      <td class="col-pagerank num" data-score=${r.pagerank_score ?? ''} title="PageRank rank ${rank(r.pagerank_rank)}">
        ${score(r.platform ? undefined : r.pagerank_score)}${raw ? html` <span class="raw-share" data-share=${r.pagerank}>${share(r.pagerank)}</span>` : nothing}
      </td>
      <td class="num">${int(r.pages)}</td>
      ${health ? html`<td class="col-errors num ${r.errors ? 'has-errors' : ''}">${r.errors === undefined ? '' : int(r.errors)}</td>` : nothing}
      <td class="num">${int(r.in_sites)}</td>
      <td class="num">${int(r.out_sites)}</td>
      <td class="col-rating" data-rating=${r.rating ?? ''}>${r.rating ? html`<span class="rating r${r.rating}">${r.rating}</span>` : nothing}</td>
      ${archiveCells(this.#sites.value?.archive?.[r.site], this.#archiveShown)}
    </tr>`;
  }

  /** archiveShown says which archive columns are shown: what an archive holds, and Common Crawl's ranks when a page has them. */
  get #archiveShown(): ArchiveShown {
    const a = Object.values(this.#sites.value?.archive ?? {});
    return { archive: this.#hasArchive || this.archived !== '', cc: a.some((x) => x.cc_pagerank !== undefined) };
  }

  get #columns(): Column[] {
    const health = this.#showHealth;
    return COLUMNS.filter((c) => health || !c.health);
  }

  #renderStatusFilter() {
    if (!this.#showHealth) return nothing;
    return html`<label class="status-filter">
      <span class="sr-only">Filter sites by crawl status</span>
      <select id="site-status-filter" .value=${this.status} @change=${this.#onStatus}
        title="Show only the sites whose crawl went this way"
        @keydown=${(ev: KeyboardEvent) => ev.key === 'Escape' && (ev.target as HTMLSelectElement).blur()}>
        <option value="" ?selected=${this.status === ''}>All statuses</option>
        ${SITE_CRAWL_STATUSES.map(
          (st) => html`<option value=${st} ?selected=${st === this.status} title=${STATUS_INFO[st].meaning}>${STATUS_INFO[st].label}</option>`,
        )}
      </select>
    </label>`;
  }

  #renderBody() {
    const d = this.#sites.value;
    if (!d) {
      return html`<tr class="placeholder"><td colspan=${this.#columns.length}>${this.#sites.loading ? 'Loading sites…' : ''}</td></tr>`;
    }
    const rows = d.rows ?? [];
    if (rows.length === 0) {
      return html`<tr class="placeholder"><td colspan=${this.#columns.length}>
        ${this.platforms === 'only' && !this.status && !this.q
          ? html`No platform site: the crawls met no social network, video site, shortener, CDN or ad host.`
          : this.status
          ? html`No site is “${STATUS_INFO[this.status].label}”${this.q ? html` among those whose name contains “${this.q}”` : nothing}.`
          : this.q
            ? html`No site name contains “${this.q}”.`
            : html`No sites yet. <a href="#/crawl">Start a crawl</a> to discover some, or <a href="#/import">import</a> an archive or a graph.`}
      </td></tr>`;
    }
    const health = this.#showHealth;
    return rows.map((r, i) => this.#renderRow(r, i, health));
  }

  override render() {
    const d = this.#sites.value;
    const total = d?.total ?? 0;
    const count = d?.rows?.length ?? 0;
    const from = count ? this.offset + 1 : 0;
    const to = this.offset + count;
    const hasPrev = this.offset > 0;
    const hasNext = to < total;
    return html`
      <div class="toolbar">
        <h1>Sites</h1>
        <label class="search-box">
          <span class="sr-only">Filter sites by name</span>
          <input id="site-filter" type="search" placeholder="Filter by name…" autocomplete="off"
            .value=${this.filterText} @input=${this.#onFilter}
            @keydown=${(ev: KeyboardEvent) => ev.key === 'Escape' && (ev.target as HTMLInputElement).blur()} />
        </label>
        ${this.#renderStatusFilter()}
        ${this.#archiveShown.archive ? archiveFilter(this.archived, (v) => this.#go({ archived: v || null, offset: null })) : nothing}
        ${platformControls(this.platforms, d?.platforms, (v) => this.#go({ platforms: v || null, offset: null }))}
        ${spinner(this.#sites.loading)}
        <div class="spacer"></div>
        <span class="range" aria-live="polite">${from}–${to} of ${int(total)}</span>
        <div class="pager">
          <button type="button" class="btn" data-page="prev" ?disabled=${!hasPrev}
            @click=${() => this.#go({ offset: Math.max(0, this.offset - PAGE_SIZE) || null }, false)}>‹ Prev</button>
          <button type="button" class="btn" data-page="next" ?disabled=${!hasNext}
            @click=${() => this.#go({ offset: this.offset + PAGE_SIZE }, false)}>Next ›</button>
        </div>
      </div>
      <ss-explainer raw .text=${`${EXPLAIN.importance} ${EXPLAIN.pagerank}`}></ss-explainer>
      ${d?.graph
        ? html`<p class="muted small graph-source" id="sites-graph" data-links=${d.graph.links}>
            Importance and linking sites from the site graph of <strong>${d.graph.label}</strong>
            (<a href="#/crawl">settings</a>).
          </p>`
        : nothing}
      <ss-rank-basis></ss-rank-basis>
      <ss-rating-legend></ss-rating-legend>
      ${this.platforms !== '' ? html`<p class="hint platform-note">${PLATFORM_NOTE}</p>` : nothing}
      ${alertBox(this.#sites.error)}
      <div class="panel table-panel">
        <table class="data sites-table" aria-label="Sites">
          <thead><tr>${this.#columns.map((c) => this.#renderHeader(c))}${archiveHeaders(this.#archiveShown)}</tr></thead>
          <tbody>${this.#renderBody()}</tbody>
        </table>
      </div>
      <p class="hint">
        <kbd>j</kbd>/<kbd>k</kbd> or <kbd>↓</kbd>/<kbd>↑</kbd> select · <kbd>Enter</kbd> open ·
        <kbd>1</kbd>–<kbd>4</kbd> rate${this.librarian ? html` as <strong>${this.librarian}</strong>` : nothing} ·
        <kbd>0</kbd> clear · <kbd>/</kbd> search pages
      </p>
    `;
  }
}

customElements.define('ss-sites', SitesView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-sites': SitesView;
  }
}
