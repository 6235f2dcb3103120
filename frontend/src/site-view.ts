// ss-site: one site — its scores, your rating (buttons and keys 1–4, 0
// clears), its selection state (status, subject, note, who decided when),
// other librarians' ratings, its crawled pages (each can open its text) and
// its links.

import { html, nothing } from 'lit';
import { api, message, SELECTION_STATUSES, type ReviewPage, type Selection, type SelectionStatus, type SiteDetail, type SiteLink } from './api';
import { LightElement } from './base';
import { crawlStatusBadge, errorClassLabel, errorEntries, errorsByClass, isSiteCrawlStatus, STATUS_INFO } from './crawl-health';
import { EXPLAIN, RawController, standingStats } from './explainer';
import { date, int, score } from './format';
import './rating-legend';
import { hasModifier, isTyping, windowKeys } from './keys';
import { alertBox, Loader, spinner } from './loader';
import { href, siteHref } from './router';
import { advanceLabel, advanceTo, offered, statusBadge, workflow } from './selection-ui';
import './page-text';
import './captured-panel';
import './site-recrawls';
import { sparkline } from './sparkline';
import { librarian, ratingsSettled, writeRating } from './state';
import { PLATFORM_NOTE, platformBadge } from './platforms';
import './site-view.css';

/**
 * selectionOf finds a site's selection without a librarian (the review
 * page needs one): in the lists of decided sites; a site in none is a
 * candidate with no note.
 */
async function selectionOf(site: string, signal: AbortSignal): Promise<Selection> {
  const lists = await Promise.all(SELECTION_STATUSES.map((s) => api.selection(s, signal)));
  for (const l of lists) {
    const x = (l ?? []).find((s) => s.site === site);
    if (x) return x;
  }
  return { site, status: 'candidate', note: '', subject: '', decided_by: '', nominated_by: '', approved_by: '', rejected_by: '', rejected_reason: '', page_only: false };
}

/** SiteSelection is a site's selection and, when a librarian is chosen, its review page (importance over the crawl). */
interface SiteSelection {
  selection: Selection;
  review: ReviewPage | null;
}

export class SiteView extends LightElement {
  static override properties = {
    site: { type: String },
    librarian: { type: String },
    rateError: { state: true },
    editSel: { state: true },
    noteText: { state: true },
    noteState: { state: true },
    platformState: { state: true },
    textOf: { state: true },
  };

  declare site: string;
  declare librarian: string;
  declare rateError: string;
  declare editSel: { subject: string; note: string } | null;
  /** noteText is the librarian's note being edited, null while untouched (the stored one shows). */
  declare noteText: string | null;
  declare noteState: string;
  /** platformState says how moving the site into or out of the platforms went ('' before any move). */
  declare platformState: string;
  /** textOf is the URL of the page whose text is open under its row, '' for none. */
  declare textOf: string;

  #detail = new Loader<SiteDetail>(this);
  /** rawShares re-renders the page when the raw shares are shown or hidden. */
  protected readonly rawShares = new RawController(this);
  #sel = new Loader<SiteSelection>(this);
  #librarianTimer: number | undefined;

  constructor() {
    super();
    windowKeys(this, this.#onKey);
    this.site = '';
    this.librarian = '';
    this.rateError = '';
    this.editSel = null;
    this.noteText = null;
    this.noteState = '';
    this.platformState = '';
    this.textOf = '';
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.clearTimeout(this.#librarianTimer);
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('site')) {
      this.#detail.value = null;
      this.#sel.value = null;
      this.editSel = null;
      this.noteText = null;
      this.noteState = '';
      this.platformState = '';
      this.textOf = '';
      void this.#load();
      void this.#loadSelection();
      window.scrollTo(0, 0);
    } else if (changed.has('librarian')) {
      window.clearTimeout(this.#librarianTimer);
      this.#librarianTimer = window.setTimeout(() => {
        void this.#load();
        void this.#loadSelection();
      }, 300);
    }
  }

  /** review is the site's review page (importance over the crawl), when a librarian is chosen. */
  get #review(): ReviewPage | null {
    return this.#sel.value?.review ?? null;
  }

  #loadSelection(): Promise<unknown> {
    const site = this.site;
    const who = this.librarian;
    return this.#sel.run(async (signal) => {
      if (!who) return { selection: await selectionOf(site, signal), review: null };
      const r = await api.review(site, who, signal);
      return { selection: r.selection, review: r };
    });
  }

  async #select(to: SelectionStatus, extra?: { subject: string; note: string }): Promise<void> {
    const name = await librarian.require();
    if (!name) return;
    try {
      const selection = await api.setSelection(this.site, { librarian: name, status: to, ...extra });
      this.#sel.value = { selection, review: this.#review };
      this.#sel.error = '';
      this.editSel = null;
    } catch (err) {
      this.#sel.error = message(err);
    }
  }

  #load(): Promise<unknown> {
    return this.#detail.run(async (signal) => {
      await ratingsSettled();
      return api.site(this.site, this.librarian, signal);
    });
  }

  #onKey = (ev: KeyboardEvent) => {
    if (hasModifier(ev) || isTyping(ev) || document.querySelector('.modal') || !this.#detail.value) return;
    if (/^[1-4]$/.test(ev.key)) {
      ev.preventDefault();
      void this.#rate(Number(ev.key));
    } else if (ev.key === '0' || ev.key === 'Backspace') {
      ev.preventDefault();
      void this.#rate(null);
    }
  };

  async #rate(rating: number | null): Promise<void> {
    const d = this.#detail.value;
    if (!d) return;
    const name = await librarian.require();
    if (!name) return;
    const before = d.rating;
    if (before === rating) return;
    this.#detail.value = { ...d, rating };
    // A rating is stored with its note, which a PUT replaces: send the note already there.
    const note = (d.ratings ?? []).find((r) => r.librarian === name)?.note ?? this.#review?.rating?.note ?? '';
    try {
      await writeRating(d.site, name, rating, note);
      this.rateError = '';
      // Reload so the ratings list and timestamps are the server's.
      void this.#load();
    } catch (err) {
      const now = this.#detail.value;
      if (now) this.#detail.value = { ...now, rating: before };
      this.rateError = message(err);
    }
  }

  #renderLinks(title: string, links: SiteLink[] | null, empty: string, attr: string) {
    const rows = links ?? [];
    return html`<section class="panel">
      <h2>${title} <span class="count">${int(rows.length)}</span></h2>
      ${rows.length === 0
        ? html`<p class="empty">${empty}</p>`
        : html`<div class="scroll-y"><table class="data compact" data-links=${attr}>
            <thead><tr><th scope="col">Site</th><th class="num" scope="col" title="Links between the two sites">Links</th><th class="num" scope="col" title="The linked site's importance as 0–100 of the top site's">Importance</th></tr></thead>
            <tbody>${rows.map(
              (l) => html`<tr data-site=${l.site}>
                <td class="col-site"><a href=${siteHref(l.site)}>${l.site}</a></td>
                <td class="num">${int(l.weight)}</td>
                <td class="num" data-score=${l.opic_score ?? ''} title="OPIC share ${l.opic.toPrecision(4)}">${score(l.opic_score)}</td>
              </tr>`,
            )}</tbody>
          </table></div>`}
    </section>`;
  }

  /** ownNote is the librarian's note on the site: with their rating, or kept alone. */
  #ownNote(d: SiteDetail): string {
    return (d.ratings ?? []).find((r) => r.librarian === this.librarian)?.note ?? this.#review?.rating?.note ?? '';
  }

  /** saveNote keeps the note without touching the rating (a note alone when the site is not rated). */
  async #saveNote(): Promise<void> {
    const d = this.#detail.value;
    if (!d || this.noteText === null) return;
    const name = await librarian.require();
    if (!name) return;
    this.noteState = 'Saving…';
    try {
      await ratingsSettled();
      const r = await api.note(d.site, name, this.noteText);
      this.noteText = null;
      this.noteState = r.rating ? 'Note saved with your rating.' : r.note ? 'Note kept (not rated).' : 'Note removed.';
      void this.#load();
      void this.#loadSelection();
    } catch (err) {
      this.noteState = '';
      this.rateError = message(err);
    }
  }

  #renderNote(d: SiteDetail) {
    if (!this.librarian) return nothing;
    const stored = this.#ownNote(d);
    const text = this.noteText ?? stored;
    return html`<form class="note-box" @submit=${(ev: Event) => {
      ev.preventDefault();
      void this.#saveNote();
    }}>
      <label class="field"><span>Your note</span>
        <input id="site-note" type="text" autocomplete="off" placeholder="A note, with or without a rating" .value=${text}
          @input=${(e: Event) => {
            this.noteText = (e.target as HTMLInputElement).value;
            this.noteState = '';
          }} /></label>
      <button type="submit" class="btn small-btn" id="site-note-save" ?disabled=${this.noteText === null || this.noteText === stored}>Save note</button>
      ${this.noteState ? html`<span class="muted small" role="status" data-note-state>${this.noteState}</span>` : nothing}
    </form>`;
  }

  #renderRating(d: SiteDetail) {
    const cur = d.rating;
    return html`<div class="rate-box">
      <span class="label">Your rating${this.librarian ? html` <span class="muted">(${this.librarian})</span>` : nothing}</span>
      <div class="segmented" role="group" aria-label="Your rating" data-rating=${cur ?? ''}>
        ${[1, 2, 3, 4].map(
          (n) => html`<button type="button" class="seg r${n} ${cur === n ? 'on' : ''}" aria-pressed=${cur === n ? 'true' : 'false'}
            data-rate=${n} title="Rate ${n} (key ${n})" @click=${() => this.#rate(n)}>${n}</button>`,
        )}
        <button type="button" class="seg clear" ?disabled=${cur === null} title="Clear (key 0)" @click=${() => this.#rate(null)}>Clear</button>
      </div>
      ${this.rateError ? html`<span class="error-text" role="alert">${this.rateError}</span>` : nothing}
    </div>`;
  }

  #renderSelection() {
    const sel = this.#sel.value?.selection;
    const edit = this.editSel;
    if (!sel) {
      return html`<section class="panel site-selection"><h2>Selection</h2>
        ${this.#sel.error ? alertBox(this.#sel.error) : html`<p class="muted small">Loading…</p>`}</section>`;
    }
    const to = advanceTo(sel.status);
    return html`<section class="panel site-selection" data-status=${sel.status}>
      <h2>Selection ${statusBadge(sel.status)}</h2>
      <div class="small decided">${workflow(sel)}</div>
      ${edit
        ? html`<form class="sel-edit stacked" @submit=${(ev: Event) => {
            ev.preventDefault();
            void this.#select(sel.status, edit);
          }}>
            <label class="field"><span>Subject</span>
              <input id="site-subject" type="text" .value=${edit.subject}
                @input=${(e: Event) => (this.editSel = { ...edit, subject: (e.target as HTMLInputElement).value })} /></label>
            <label class="field"><span>Selection note</span>
              <input id="site-selnote" type="text" .value=${edit.note}
                @input=${(e: Event) => (this.editSel = { ...edit, note: (e.target as HTMLInputElement).value })} /></label>
            <div class="actions">
              <button type="submit" class="btn primary small-btn">Save</button>
              <button type="button" class="btn small-btn" @click=${() => (this.editSel = null)}>Cancel</button>
            </div>
          </form>`
        : html`<dl class="sel-dl">
            <dt>Subject</dt><dd data-subject>${sel.subject || html`<span class="muted">–</span>`}</dd>
            <dt>Note</dt><dd data-selection-note>${sel.note || html`<span class="muted">–</span>`}</dd>
          </dl>`}
      <div class="actions">
        ${to && offered(sel.status, to, sel.nominated_by)
          ? html`<button type="button" class="btn small-btn" data-action=${to} @click=${() => this.#select(to)}>${advanceLabel(sel.status)}</button>`
          : nothing}
        ${sel.status !== 'rejected' && offered(sel.status, 'rejected', sel.nominated_by)
          ? html`<button type="button" class="btn small-btn danger" data-action="rejected" @click=${() => this.#select('rejected')}>Reject</button>`
          : nothing}
        ${edit ? nothing : html`<button type="button" class="btn small-btn" @click=${() => (this.editSel = { subject: sel.subject, note: sel.note })}>Edit</button>`}
      </div>
      ${alertBox(this.#sel.error)}
    </section>`;
  }

  /** movePlatform moves the site into (true) or out of (false) the project's platforms. */
  async #movePlatform(platform: boolean): Promise<void> {
    const d = this.#detail.value;
    if (!d) return;
    this.platformState = 'Saving…';
    try {
      await api.setPlatform(d.site, platform, this.librarian);
      this.platformState = platform
        ? 'Moved into the platforms: left out of the ranking, the review queue and the exports.'
        : 'Moved out of the platforms: ranked, reviewed and exported as any site.';
      void this.#load();
    } catch (err) {
      this.platformState = message(err);
    }
  }

  /** renderPlatform says whether the site is a platform, why, and moves it in or out; nothing from an older server. */
  #renderPlatform(d: SiteDetail) {
    if (d.platform === undefined) return nothing;
    const why = d.platform_chosen
      ? d.platform
        ? 'A librarian moved it into the platforms for this project.'
        : `A librarian moved it out of the platforms for this project${d.platform_listed ? ' (the list of platforms names it)' : ''}.`
      : d.platform
        ? 'The list of platforms (social networks, video sites, URL shorteners, CDNs, ad hosts) names it.'
        : 'Not a platform: ranked, reviewed and exported as any site.';
    return html`<section class="panel site-platform" data-platform=${d.platform ? 'yes' : 'no'}>
      <h2>Platform${platformBadge(d.platform)}</h2>
      <p class="small">${why}</p>
      ${d.platform ? html`<p class="small muted">${PLATFORM_NOTE}</p>` : nothing}
      <div class="actions">
        <button type="button" class="btn small-btn" id="site-platform-move" @click=${() => this.#movePlatform(!d.platform)}>
          ${d.platform ? 'Move out of the platforms' : 'Move into the platforms'}</button>
      </div>
      ${this.platformState ? html`<p class="muted small" role="status" data-platform-state>${this.platformState}</p>` : nothing}
    </section>`;
  }

  /** renderCrawlReport says how fetching the site went; nothing from an older server, which sends neither status nor report. */
  #renderCrawlReport(d: SiteDetail) {
    const st = d.crawl_status;
    const rep = d.report;
    if (!st && !rep) return nothing;
    return html`<section class="panel crawl-report" data-crawl-status=${st ?? ''}>
      <p class="crawl-sentence">
        <span class="label">Crawl</span> ${crawlStatusBadge(st)}
        ${isSiteCrawlStatus(st) ? html`<span class="sentence">${STATUS_INFO[st].sentence}</span>` : nothing}
      </p>
      ${rep
        ? html`<dl class="report">
            <div><dt>Fetched fine</dt><dd data-report="pages_ok">${int(rep.pages_ok)}</dd></div>
            <div><dt>Errors</dt><dd data-report="errors">${errorEntries(rep.errors_by_class).length
              ? errorsByClass(rep.errors_by_class)
              : html`<span class="muted">none</span>`}</dd></div>
            <div title="URLs robots.txt disallowed, not fetched"><dt>Blocked by robots.txt</dt><dd data-report="robots_blocked">${int(rep.robots_blocked)}</dd></div>
            ${rep.out_of_scope === undefined
              ? nothing
              : html`<div title="URLs of the site found by the crawls and not fetched: out of their scope or too many links from a seed">
                    <dt>Out of scope</dt><dd data-report="out_of_scope">${int(rep.out_of_scope)}</dd></div>
                  <div title="URLs left out by the trap guards: too deep or self-repeating paths, endless query strings, calendars">
                    <dt>Left out as traps</dt><dd data-report="trapped">${int(rep.trapped ?? 0)}</dd></div>
                  <div title="The delay between two requests the last crawl kept with this site (its Crawl-delay, a 429 or 503, or the project's delay)">
                    <dt>Delay used</dt><dd data-report="delay_ms">${rep.delay_ms ? `${(rep.delay_ms / 1000).toLocaleString()} s` : html`<span class="muted">not asked</span>`}</dd></div>`}
          </dl>`
        : nothing}
    </section>`;
  }

  /** textButton opens or closes a page's text under its row; a failed fetch has none. */
  #textButton(url: string, status: number, errorClass: string | undefined) {
    if (status < 200 || status >= 300 || errorClass) return nothing;
    const open = this.textOf === url;
    return html`<button type="button" class="btn small-btn text-btn" data-open-text aria-expanded=${open ? 'true' : 'false'}
      title="Read the page's text as sitesift kept it: its main text, or the whole page" @click=${() => (this.textOf = open ? '' : url)}>
      ${open ? 'Hide text' : 'Text'}</button>`;
  }

  #statusClass(code: number): string {
    if (code >= 200 && code < 300) return 'ok';
    if (code >= 300 && code < 400) return 'redirect';
    if (code === 0) return 'none';
    return 'bad';
  }

  override render() {
    const d = this.#detail.value;
    const others = (d?.ratings ?? []).filter((r) => r.librarian !== this.librarian);
    // Colleagues' ratings are withheld until the librarian has rated the site (the review page counts them).
    const withheld = d && d.rating === null && this.#review ? this.#review.others_rated : 0;
    const pages = d?.pages ?? [];
    return html`
      <div class="toolbar">
        <a class="back" href="#/sites">‹ Sites</a>
        <h1 class="site-name">${this.site}</h1>
        ${spinner(this.#detail.loading)}
        <div class="spacer"></div>
        <a class="btn" href=${href('/review', { site: this.site })} data-review-site title="Open it in the review queue">Review</a>
        <a class="btn" href=${href('/search', { site: this.site })} data-search-site>Search this site</a>
        <a class="btn" href=${`http://${this.site}/`} target="_blank" rel="noopener noreferrer">Open site ↗</a>
      </div>
      ${alertBox(this.#detail.error)}
      <ss-explainer raw .text=${`${EXPLAIN.importance} ${EXPLAIN.pagerank}`}></ss-explainer>
      ${d
        ? html`
            <div class="stats">
              ${standingStats(d.platform ? {} : d, d.opic, d.pagerank)}
              <div class="stat"><span class="k">Pages</span><span class="v">${int(d.pages_count)}</span></div>
              <div class="stat"><span class="k">In-sites</span><span class="v">${int(d.in_sites)}</span></div>
              <div class="stat"><span class="k">Out-sites</span><span class="v">${int(d.out_sites)}</span></div>
              ${this.#review
                ? html`<div class="stat spark"><span class="k">Importance over the crawl</span>${sparkline(this.#review.opic_series, 180, 36)}</div>`
                : nothing}
              ${this.#renderRating(d)}
            </div>
            <ss-rating-legend></ss-rating-legend>
            ${this.#renderNote(d)}
            ${this.#renderCrawlReport(d)}
            <ss-site-recrawls .site=${this.site}></ss-site-recrawls>
            <ss-captured .site=${this.site}></ss-captured>
            <div class="detail-grid">
              <section class="panel pages-panel">
                <h2>Pages <span class="count">${int(pages.length)}</span></h2>
                ${pages.length === 0
                  ? html`<p class="empty">No pages crawled.</p>`
                  : html`<table class="data compact pages-table">
                      <thead><tr><th scope="col" class="col-status">Status</th><th scope="col">Title and URL</th></tr></thead>
                      <tbody>${pages.map(
                        (p) => html`<tr data-error-class=${p.error_class ?? ''} data-page=${p.url}>
                          <td class="col-status"><span class="status ${this.#statusClass(p.status)}" title=${p.content_type}>${p.status || '–'}</span>${p.error_class
                            ? html`<br />${errorClassLabel(p.error_class)}`
                            : nothing}</td>
                          <td class="page">
                            <div class="page-line">
                              <span class="title">${p.title || html`<span class="muted">(no title)</span>`}</span>
                              ${this.#textButton(p.url, p.status, p.error_class)}
                            </div>
                            <a class="url" href=${p.url} target="_blank" rel="noopener noreferrer" title=${p.url}>${p.url}</a>
                          </td>
                        </tr>${this.textOf === p.url
                          ? html`<tr class="page-text-row"><td colspan="2"><ss-page-text .url=${p.url}></ss-page-text></td></tr>`
                          : nothing}`,
                      )}</tbody>
                    </table>`}
              </section>
              <div class="aside">
                ${this.#renderSelection()}
                ${this.#renderPlatform(d)}
                <section class="panel">
                  <h2>Other librarians <span class="count">${int(withheld || others.length)}</span></h2>
                  ${withheld > 0
                    ? html`<p class="empty" data-withheld=${withheld}>${int(withheld)} other ${withheld === 1 ? 'librarian has' : 'librarians have'}
                        rated this site: their ratings are hidden until you rate it, so that you judge it unswayed.</p>`
                    : others.length === 0
                    ? html`<p class="empty" data-withheld="0">No one else has rated this site.</p>`
                    : html`<table class="data compact" data-ratings>
                        <thead><tr><th scope="col">Librarian</th><th scope="col">Rating</th><th scope="col">Rated</th></tr></thead>
                        <tbody>${others.map(
                          (r) => html`<tr data-librarian=${r.librarian}>
                            <td>${r.librarian}${r.note ? html`<div class="note">${r.note}</div>` : nothing}</td>
                            <td>${r.rating ? html`<span class="rating r${r.rating}">${r.rating}</span>` : html`<span class="muted">note only</span>`}</td>
                            <td class="muted nowrap">${date(r.rated_at)}</td>
                          </tr>`,
                        )}</tbody>
                      </table>`}
                </section>
                ${this.#renderLinks('Linked from', d.in_links, 'No other site links here.', 'in')}
                ${this.#renderLinks('Links to', d.out_links, 'This site links to no other site.', 'out')}
              </div>
            </div>
            <p class="hint"><kbd>1</kbd>–<kbd>4</kbd> rate · <kbd>0</kbd> clear · <kbd>/</kbd> search pages</p>
          `
        : nothing}
    `;
  }
}

customElements.define('ss-site', SiteView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-site': SiteView;
  }
}
