// ss-crawl-errors: the failed fetches of the last crawl on the Crawl page —
// failures, error answers and robots.txt refusals, latest first, filtered by
// error class and by site, a page at a time. A site opens its site page.

import { html, nothing, type PropertyValues } from 'lit';
import { api, ApiError, type CrawlErrors, type CrawlStatus } from './api';
import { LightElement } from './base';
import { errorClassLabel, errorEntries } from './crawl-health';
import { date, int } from './format';
import { alertBox, Loader, spinner } from './loader';
import { siteHref } from './router';
import { ACTIVE_STATES } from './state';
import './crawl-errors.css';

const PAGE_SIZE = 25;

/** clock is the time of day of an RFC 3339 timestamp (the date is in the tooltip). */
function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
/** REFRESH_MS spaces the reloads of the list while a crawl adds errors to it. */
const REFRESH_MS = 3000;

/** UNSUPPORTED is the list of a server that has no errors list (older than GET /api/crawl/errors). */
const UNSUPPORTED = 'unsupported';

export class CrawlErrorsPanel extends LightElement {
  static override properties = {
    status: { attribute: false },
    cls: { state: true },
    siteText: { state: true },
    offset: { state: true },
  };

  /** status is the crawl status of the feed: its errors_by_class offers the class filter. */
  declare status: CrawlStatus | null;
  declare cls: string;
  declare siteText: string;
  declare offset: number;

  #list = new Loader<CrawlErrors | typeof UNSUPPORTED>(this);
  #timer: number | undefined;
  #lastLoad = 0;

  constructor() {
    super();
    this.status = null;
    this.cls = '';
    this.siteText = '';
    this.offset = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load(false);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.clearTimeout(this.#timer);
  }

  protected override updated(changed: PropertyValues<this>): void {
    const before = changed.get('status') as CrawlStatus | null | undefined;
    const now = this.status;
    if (!changed.has('status') || !before || !now) return;
    // A new crawl, a crawl that ended, or more errors: the list is stale.
    const ended = ACTIVE_STATES.has(before.state) && !ACTIVE_STATES.has(now.state);
    const started = !ACTIVE_STATES.has(before.state) && ACTIVE_STATES.has(now.state);
    if (ended || started) void this.#load(true);
    else if (now.errors !== before.errors) this.#schedule();
  }

  /** #schedule reloads the list silently, at most once every REFRESH_MS. */
  #schedule(): void {
    if (this.#timer !== undefined) return;
    const wait = Math.max(0, this.#lastLoad + REFRESH_MS - Date.now());
    this.#timer = window.setTimeout(() => {
      this.#timer = undefined;
      void this.#load(true);
    }, wait);
  }

  async #load(silent: boolean): Promise<void> {
    this.#lastLoad = Date.now();
    const p = { site: this.siteText.trim(), class: this.cls, offset: this.offset, limit: PAGE_SIZE };
    await this.#list.run(async (signal) => {
      try {
        return await api.crawlErrors(p, signal);
      } catch (err) {
        // Without a crawl id only a server that lacks the list answers 404.
        if (err instanceof ApiError && err.status === 404) return UNSUPPORTED;
        throw err;
      }
    }, { silent });
  }

  #filter(change: () => void, delay = 0): void {
    change();
    this.offset = 0;
    window.clearTimeout(this.#timer);
    this.#timer = window.setTimeout(() => {
      this.#timer = undefined;
      void this.#load(false);
    }, delay);
  }

  #page(offset: number): void {
    this.offset = Math.max(0, offset);
    void this.#load(false);
  }

  #renderRows(list: CrawlErrors) {
    const rows = list.rows ?? [];
    if (rows.length === 0) {
      const filtered = this.cls || this.siteText.trim();
      return html`<p class="empty" id="crawl-errors-empty">${list.crawl === 0
        ? 'No crawl yet.'
        : filtered
          ? 'No failed fetch matches these filters.'
          : 'No fetch of the last crawl failed.'}</p>`;
    }
    return html`<table class="data compact crawl-errors-table" aria-label="Failed fetches of the last crawl">
      <thead><tr><th>When</th><th>Site</th><th>URL</th><th class="num">HTTP</th><th>Class</th><th>Error</th></tr></thead>
      <tbody>${rows.map(
        (r) => html`<tr data-url=${r.url} data-site=${r.site} data-class=${r.class}>
          <td class="when nowrap" title=${r.fetched_at ? date(r.fetched_at) : ''}>${r.fetched_at ? clock(r.fetched_at) : '–'}</td>
          <td class="site"><a href=${siteHref(r.site)} title="Open the site page of ${r.site}">${r.site}</a></td>
          <td class="url" title=${r.url}><a href=${r.url} target="_blank" rel="noopener noreferrer">${r.url}</a></td>
          <td class="num">${r.status || '–'}</td>
          <td>${errorClassLabel(r.class)}</td>
          <td class="error" title=${r.error}>${r.error}</td>
        </tr>`,
      )}</tbody>
    </table>`;
  }

  override render() {
    const list = this.#list.value;
    if (list === UNSUPPORTED) return nothing;
    const classes = errorEntries(this.status?.errors_by_class).map(([c]) => c);
    if (this.cls && !classes.includes(this.cls)) classes.push(this.cls);
    const total = list?.total ?? 0;
    const count = list?.rows?.length ?? 0;
    const from = count ? this.offset + 1 : 0;
    const to = this.offset + count;
    return html`<section class="panel crawl-errors">
      <h2>
        Failed fetches of the last crawl
        ${list ? html`<span class="count" id="crawl-errors-total">${int(total)}</span>` : nothing}
        ${spinner(this.#list.loading)}
      </h2>
      <div class="filters">
        <label>
          <span class="sr-only">Error class</span>
          <select id="crawl-errors-class" .value=${this.cls}
            @change=${(ev: Event) => this.#filter(() => (this.cls = (ev.target as HTMLSelectElement).value))}>
            <option value="" ?selected=${!this.cls}>All classes</option>
            ${classes.map((c) => html`<option value=${c} ?selected=${c === this.cls}>${c}</option>`)}
          </select>
        </label>
        <label class="search-box">
          <span class="sr-only">Site</span>
          <input id="crawl-errors-site" type="search" placeholder="Site…" autocomplete="off" spellcheck="false"
            .value=${this.siteText} @input=${(ev: Event) => this.#filter(() => (this.siteText = (ev.target as HTMLInputElement).value), 300)} />
        </label>
        <span class="spacer"></span>
        <span class="range" aria-live="polite">${from}–${to} of ${int(total)}</span>
        <div class="pager">
          <button type="button" class="btn" data-page="prev" ?disabled=${this.offset === 0}
            @click=${() => this.#page(this.offset - PAGE_SIZE)}>‹ Prev</button>
          <button type="button" class="btn" data-page="next" ?disabled=${to >= total}
            @click=${() => this.#page(this.offset + PAGE_SIZE)}>Next ›</button>
        </div>
      </div>
      ${alertBox(this.#list.error)}
      ${list ? this.#renderRows(list) : nothing}
    </section>`;
  }
}

customElements.define('ss-crawl-errors', CrawlErrorsPanel);

declare global {
  interface HTMLElementTagNameMap {
    'ss-crawl-errors': CrawlErrorsPanel;
  }
}
