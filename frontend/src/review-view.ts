// ss-review: the review queue — the sites the current librarian has not
// rated yet (GET /api/review/queue), in the chosen order, one at a time as a
// review card (GET /api/sites/{site}/review) with the queue beside it.
// Fully keyboard-driven: 1–4 rate and go to the next site, j/k move, n
// note, a nominate/approve, r reject, / search the queue.
//
// Speed is the point (100 sites in 10 minutes): the next sites' review data
// is fetched ahead, a rating moves on at once and is written behind the
// scenes (serialised with every other rating write), and the queue is
// topped up before it runs dry.
//
// The queue's rows, the review pages fetched ahead and the queue panel are
// review-queue.ts; the card is review-card.ts; the keys review-keys.ts.

import { html, nothing } from 'lit';
import { api, isAbort, message, type QueueOrder, type ReviewPage, type SelectionStatus } from './api';
import { LightElement } from './base';
import { EXPLAIN, RawController } from './explainer';
import { int } from './format';
import { windowKeys } from './keys';
import { alertBox, Loader, spinner } from './loader';
import { href, navigate } from './router';
import { advanceTo } from './selection-ui';
import { librarian, ratingsSettled, writeRating } from './state';
import { renderCard, renderFlash, type Card, type Flash, type NoteState, type SelectionEdit } from './review-card';
import { fieldKeys, reviewKeys } from './review-keys';
import {
  nextUnrated,
  ORDERS,
  PREFETCH,
  QUEUE_LIMIT,
  queueRowOf,
  REFILL_BELOW,
  renderQueue,
  ReviewPages,
  unratedAfter,
  type Entry,
  type Queue,
} from './review-queue';
import './review-view.css';
import { PLATFORM_NOTE } from './platforms';

export class ReviewView extends LightElement {
  static override properties = {
    params: { attribute: false },
    librarian: { type: String },
    rows: { state: true },
    cur: { state: true },
    total: { state: true },
    excluded: { state: true },
    platformsLeftOut: { state: true },
    review: { state: true },
    reviewError: { state: true },
    actionError: { state: true },
    actionNote: { state: true },
    note: { state: true },
    noteState: { state: true },
    qText: { state: true },
    flash: { state: true },
    editSel: { state: true },
    ratedCount: { state: true },
    textOf: { state: true },
  };

  declare params: URLSearchParams;
  declare librarian: string;
  declare rows: Entry[];
  /** cur is the index of the site shown, -1 for none. */
  declare cur: number;
  /** total is the number of sites left to rate (the server's count, less the ratings given since). */
  declare total: number;
  /** excluded counts the unrated sites left out for their crawl status; undefined when the server does not say. */
  declare excluded: number | undefined;
  /** platformsLeftOut counts the unrated platform sites left out; undefined when the server does not say. */
  declare platformsLeftOut: number | undefined;
  /** review is the review data of the current site, null while it loads. */
  declare review: ReviewPage | null;
  declare reviewError: string;
  declare actionError: string;
  declare actionNote: string;
  /** note is the text of the note field: saved with the rating, and as the selection note on a/r. */
  declare note: string;
  declare noteState: NoteState;
  declare qText: string;
  declare flash: Flash | null;
  /** editSel holds the subject and selection note being edited, null when not editing. */
  declare editSel: SelectionEdit | null;
  declare ratedCount: number;
  /** textOf is the URL of the top page whose text is open on the card, '' for none. */
  declare textOf: string;

  /** pages are the review pages fetched, ahead of the current site too. */
  #pages = new ReviewPages();
  #queue = new Loader<Queue>(this);
  /** rawShares re-renders the page when the raw shares are shown or hidden. */
  protected readonly rawShares = new RawController(this);
  #refilling: Promise<void> | null = null;
  #qTimer: number | undefined;
  #librarianTimer: number | undefined;
  #scrollQueue = false;
  /** noteEdited is set once the note was typed in on this card: only then does a/r copy it to the selection. */
  #noteEdited = false;
  #sessionStart = 0;
  #asked = false;

  constructor() {
    super();
    windowKeys(
      this,
      reviewKeys({
        hasLibrarian: () => this.librarian !== '',
        hasSite: () => this.current !== undefined,
        requireLibrarian: () => void librarian.require(),
        rate: (n) => this.#rate(n),
        move: (d) => this.#move(d),
        focusNote: () => this.#focusNote(),
        advance: () => this.#advance(),
        reject: () => this.#reject(),
        focusQuery: () => this.#focusQuery(),
      }),
    );
    this.params = new URLSearchParams();
    this.librarian = '';
    this.rows = [];
    this.cur = -1;
    this.total = 0;
    this.excluded = undefined;
    this.platformsLeftOut = undefined;
    this.review = null;
    this.reviewError = '';
    this.actionError = '';
    this.actionNote = '';
    this.note = '';
    this.noteState = '';
    this.qText = '';
    this.flash = null;
    this.editSel = null;
    this.ratedCount = 0;
    this.textOf = '';
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.clearTimeout(this.#qTimer);
    window.clearTimeout(this.#librarianTimer);
  }

  get order(): QueueOrder {
    const o = this.params.get('order') as QueueOrder | null;
    return o && ORDERS.some((x) => x.value === o) ? o : 'importance';
  }

  get q(): string {
    return this.params.get('q') ?? '';
  }

  /** includeFailed keeps the sites whose crawl failed (dead, closed to robots, errors only) in the queue. */
  get includeFailed(): boolean {
    return this.params.get('include_failed') === '1';
  }

  /** includePlatforms keeps the platform sites (social networks, video sites, shorteners, CDNs, ad hosts) in the queue. */
  get includePlatforms(): boolean {
    return this.params.get('include_platforms') === '1';
  }

  /** site is a site asked for by the address (#/review?site=...), shown first. */
  get site(): string {
    return this.params.get('site') ?? '';
  }

  get current(): Entry | undefined {
    return this.cur >= 0 ? this.rows[this.cur] : undefined;
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('params')) {
      const prev = changed.get('params') as URLSearchParams | undefined;
      if ((!prev || prev.get('q') !== this.q) && document.activeElement !== this.querySelector('#review-q')) this.qText = this.q;
    }
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    // The line saying what was just rated takes room above the card: the replay gives it back (review-view.css).
    this.toggleAttribute('data-flash', this.flash !== null);
    const prev = changed.get('params') as URLSearchParams | undefined;
    const paramsChanged = changed.has('params') && (!prev || prev.toString() !== this.params.toString());
    if (changed.has('librarian') && changed.get('librarian') !== undefined) {
      // The queue is per librarian; wait until the name stops changing.
      window.clearTimeout(this.#librarianTimer);
      this.#librarianTimer = window.setTimeout(() => void this.#loadQueue(), 300);
    } else if (paramsChanged) {
      void this.#loadQueue();
    }
    if (this.#scrollQueue) {
      this.#scrollQueue = false;
      this.#reveal();
    }
  }

  protected override firstUpdated(): void {
    // Reviewing needs a librarian: ask at once rather than show an empty page.
    if (!librarian.name && !this.#asked) {
      this.#asked = true;
      void librarian.require();
    }
  }

  /**
   * reveal brings the new current site into view: its row inside the queue
   * list (scrolling the list only — scrollIntoView would move the window
   * too), and the top of the card when the librarian had scrolled down to
   * read the previous one.
   */
  #reveal(): void {
    const list = this.querySelector<HTMLElement>('.queue-list');
    const li = list?.querySelector<HTMLElement>('li.current');
    if (list && li) {
      const pad = 6;
      if (li.offsetTop < list.scrollTop + pad) list.scrollTop = li.offsetTop - pad;
      else if (li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight - pad) {
        list.scrollTop = li.offsetTop + li.offsetHeight - list.clientHeight + pad;
      }
    }
    const card = this.querySelector<HTMLElement>('.review-card');
    const bar = document.querySelector<HTMLElement>('.topbar')?.offsetHeight ?? 0;
    if (card && card.getBoundingClientRect().top < bar) {
      window.scrollTo({ top: window.scrollY + card.getBoundingClientRect().top - bar - 12 });
    }
  }

  // ---------- data ----------

  /** fetchReview returns a site's review page, from the cache unless force. */
  #fetchReview(site: string, force = false): Promise<ReviewPage> {
    return this.#pages.fetch(site, this.librarian, force);
  }

  /** prefetch fetches the review data of the next unrated sites after the current one. */
  #prefetch(): void {
    let n = 0;
    for (let i = this.cur + 1; i < this.rows.length && n < PREFETCH; i++) {
      const r = this.rows[i]!;
      if (r.rated !== null) continue;
      n++;
      this.#fetchReview(r.site).catch(() => undefined); // shown when the site is reached
    }
  }

  async #loadQueue(): Promise<void> {
    const name = this.librarian;
    this.#pages.reset(this.librarian);
    this.flash = null;
    this.actionError = '';
    this.actionNote = '';
    if (!name || (this.order === 'search' && !this.q.trim())) {
      this.#queue.abort();
      this.rows = [];
      this.cur = -1;
      this.total = 0;
      this.excluded = undefined;
    this.platformsLeftOut = undefined;
      this.review = null;
      this.#queue.error = '';
      return;
    }
    const got = await this.#queue.run(async (signal) => {
      await ratingsSettled();
      const q = await api.reviewQueue(
        { librarian: name, order: this.order, q: this.q, limit: QUEUE_LIMIT, includeFailed: this.includeFailed, includePlatforms: this.includePlatforms },
        signal,
      );
      signal.throwIfAborted();
      let rows: Entry[] = (q.rows ?? []).map((r) => ({ ...r, rated: null }));
      let start = 0;
      if (this.site) {
        // A site asked for by name comes first, even one rated already (to see the others' ratings).
        const i = rows.findIndex((r) => r.site === this.site);
        if (i >= 0) start = i;
        else {
          try {
            const p = await this.#fetchReview(this.site);
            rows = [{ ...queueRowOf(p), rated: p.rating?.rating || null }, ...rows];
          } catch (err) {
            if (isAbort(err)) throw err;
            this.actionError = `${this.site}: ${message(err)}`;
          }
        }
      }
      return { rows, total: q.total, excluded: q.excluded, platforms: q.platforms, start };
    });
    if (got === 'failed') {
      this.rows = [];
      this.cur = -1;
      this.review = null;
    }
    const queue = this.#queue.value;
    if (got !== 'done' || !queue) return;
    this.rows = queue.rows;
    this.total = queue.total;
    this.excluded = queue.excluded;
    this.platformsLeftOut = queue.platforms;
    this.ratedCount = 0;
    this.#sessionStart = 0;
    this.#show(queue.rows.length ? queue.start : -1);
  }

  /** refill tops the queue up with the next unrated sites, keeping the rows (and ratings) shown. */
  #refill(): Promise<void> {
    if (this.#refilling) return this.#refilling;
    const name = this.librarian;
    const order = this.order;
    const q = this.q;
    const includeFailed = this.includeFailed;
    const includePlatforms = this.includePlatforms;
    const run = async () => {
      try {
        await ratingsSettled();
        const res = await api.reviewQueue({ librarian: name, order, q, limit: QUEUE_LIMIT, includeFailed, includePlatforms });
        if (name !== this.librarian || order !== this.order || q !== this.q || includeFailed !== this.includeFailed ||
          includePlatforms !== this.includePlatforms) return;
        const have = new Set(this.rows.map((r) => r.site));
        const more = (res.rows ?? []).filter((r) => !have.has(r.site)).map((r) => ({ ...r, rated: null }));
        if (more.length) this.rows = [...this.rows, ...more];
        this.total = res.total;
        this.excluded = res.excluded;
        this.platformsLeftOut = res.platforms;
        if (this.cur < 0 || this.current?.rated !== null) {
          const i = nextUnrated(this.rows, this.cur);
          if (i >= 0) this.#show(i);
        } else this.#prefetch();
      } catch (err) {
        this.actionError = `Topping up the queue: ${message(err)}`;
      } finally {
        this.#refilling = null;
      }
    };
    this.#refilling = run();
    return this.#refilling;
  }

  /** show makes row i the current site: its card comes from the cache at once when it was fetched ahead. */
  #show(i: number): void {
    if (i >= this.rows.length) i = this.rows.length - 1;
    this.cur = i;
    this.editSel = null;
    this.textOf = '';
    this.reviewError = '';
    this.note = '';
    this.noteState = '';
    this.#noteEdited = false;
    this.#scrollQueue = true;
    const row = this.current;
    if (!row) {
      this.review = null;
      return;
    }
    const site = row.site;
    this.review = this.#pages.ready.get(site) ?? null;
    if (this.review) this.note = this.review.rating?.note ?? '';
    if (!this.review || row.rated !== null) {
      this.#fetchReview(site, row.rated !== null && (this.review?.rating?.rating || null) !== row.rated).then(
        (r) => {
          if (this.current?.site !== site) return;
          this.review = r;
          if (!this.#noteEdited) this.note = r.rating?.note ?? '';
        },
        (err: unknown) => {
          if (this.current?.site === site) this.reviewError = message(err);
        },
      );
    }
    this.#prefetch();
    if (unratedAfter(this.rows, i) < REFILL_BELOW && this.rows.filter((r) => r.rated === null).length < this.total) void this.#refill();
  }

  #move(d: number): void {
    if (!this.rows.length) return;
    const i = Math.max(0, Math.min(this.cur + d, this.rows.length - 1));
    if (i !== this.cur) this.#show(i);
  }

  // ---------- actions ----------

  #setRow(site: string, patch: Partial<Entry>): void {
    this.rows = this.rows.map((r) => (r.site === site ? { ...r, ...patch } : r));
  }

  /** rate stores the current site's rating (with the note typed) and moves on to the next unrated site at once. */
  #rate(n: number): void {
    const row = this.current;
    const name = this.librarian;
    if (!row || !name) return;
    const site = row.site;
    const before = row.rated;
    const note = this.note;
    this.#setRow(site, { rated: n });
    if (before === null) {
      this.total = Math.max(0, this.total - 1);
      this.ratedCount++;
      if (!this.#sessionStart) this.#sessionStart = performance.now();
    }
    this.#pages.forget(site);
    this.actionError = '';
    this.actionNote = '';
    const write = writeRating(site, name, n, note);
    // Move on without waiting for the server; a failed write puts the site back.
    const next = nextUnrated(this.rows, this.cur);
    this.flash = { site, rating: n, others: null, error: '' };
    if (next >= 0) this.#show(next);
    else {
      // Nothing unrated is left here: stay on this site (it shows the others' ratings) while the queue tops up.
      this.#show(this.cur);
      void this.#refill();
    }
    write.then(
      async () => {
        void librarian.loadProfiles(); // the "N rated" counts of the chooser
        try {
          // Rated now: the page lists the other librarians' ratings.
          const r = await this.#fetchReview(site, true);
          if (this.flash?.site === site) this.flash = { ...this.flash, others: r.ratings ?? [] };
        } catch {
          /* the rating is stored; the others' ratings show on the card when it is visited again */
        }
      },
      (err: unknown) => {
        this.#setRow(site, { rated: before });
        if (before === null) {
          this.total++;
          this.ratedCount--;
        }
        if (this.flash?.site === site) this.flash = null;
        this.actionError = `Rating ${site} was not saved: ${message(err)}`;
      },
    );
  }

  /** saveNote stores the note typed (Enter in the note field): with the rating when the site has one, else alone. */
  async #saveNote(): Promise<void> {
    const row = this.current;
    const name = this.librarian;
    if (!row || !name) return;
    const rated = row.rated ?? (this.review?.rating?.rating || null);
    const site = row.site;
    this.noteState = 'saving';
    try {
      // Without a rating the note is kept alone (PUT /api/sites/{site}/note).
      await (rated === null ? api.note(site, name, this.note) : writeRating(site, name, rated, this.note));
      this.#pages.forget(site);
      if (this.current?.site === site) this.noteState = 'saved';
    } catch (err) {
      if (this.current?.site === site) this.noteState = 'pending';
      this.actionError = `Note on ${site}: ${message(err)}`;
    }
  }

  async #select(to: SelectionStatus | null, extra?: { subject?: string; note?: string }): Promise<void> {
    const row = this.current;
    const name = this.librarian;
    if (!row || !name || !to) return;
    const site = row.site;
    const from = this.review?.selection.status ?? row.status;
    const body: { librarian: string; status: SelectionStatus; note?: string; subject?: string; reason?: string } = { librarian: name, status: to };
    // A note typed on this card is the reason for the decision; otherwise the stored note stays.
    if (this.#noteEdited && this.note.trim()) body.note = this.note;
    if (to === 'rejected' && body.note) body.reason = body.note;
    if (extra?.note !== undefined) body.note = extra.note;
    if (extra?.subject !== undefined) body.subject = extra.subject;
    this.actionError = '';
    try {
      const sel = await api.setSelection(site, body);
      this.#setRow(site, { status: sel.status });
      const r = this.#pages.ready.get(site);
      if (r) this.#pages.ready.set(site, { ...r, selection: sel });
      if (this.current?.site === site && this.review) this.review = { ...this.review, selection: sel };
      this.actionNote = from === sel.status ? `${site}: selection saved.` : `${site}: ${from} → ${sel.status}.`;
      this.editSel = null;
    } catch (err) {
      this.actionError = `${site}: ${message(err)}`;
    }
  }

  #advance(): void {
    const s = this.review?.selection.status ?? this.current?.status;
    if (!s) return;
    const to = advanceTo(s);
    if (!to) {
      this.actionNote = `${this.current?.site} is approved already (r rejects it).`;
      return;
    }
    void this.#select(to);
  }

  #reject(): void {
    const s = this.review?.selection.status ?? this.current?.status;
    if (s === 'rejected') {
      this.actionNote = `${this.current?.site} is rejected already (a reopens it).`;
      return;
    }
    void this.#select('rejected');
  }

  #focusNote(): void {
    const box = this.querySelector<HTMLInputElement>('#review-note');
    box?.focus();
  }

  #focusQuery(): void {
    const box = this.querySelector<HTMLInputElement>('#review-q');
    box?.focus();
    box?.select();
  }

  #go(changes: Record<string, string | null>, replace = true): void {
    const p: Record<string, string | null> = {
      order: this.params.get('order'),
      q: this.q,
      include_failed: this.includeFailed ? '1' : null,
      include_platforms: this.includePlatforms ? '1' : null,
      ...changes,
    };
    navigate(href('/review', p), replace);
  }

  #onQueryInput = (ev: Event) => {
    this.qText = (ev.target as HTMLInputElement).value;
    window.clearTimeout(this.#qTimer);
    // A full-text query waits for Enter or a longer pause than a name filter.
    this.#qTimer = window.setTimeout(() => this.#go({ q: this.qText.trim() || null, site: null }), this.order === 'search' ? 600 : 300);
  };

  #onQueryKey = fieldKeys(() => {
    window.clearTimeout(this.#qTimer);
    this.#go({ q: this.qText.trim() || null, site: null });
  });

  #onNoteKey = fieldKeys(() => void this.#saveNote());

  // ---------- rendering ----------

  #renderToolbar() {
    const remaining = this.total;
    const mins = this.#sessionStart ? (performance.now() - this.#sessionStart) / 60000 : 0;
    return html`<div class="toolbar review-toolbar">
      <h1>Review</h1>
      <div class="segmented" role="group" aria-label="Order of the queue">
        ${ORDERS.map(
          (o) => html`<button type="button" class="seg ${o.value === this.order ? 'on' : ''}" data-order=${o.value} title=${o.title}
            aria-pressed=${o.value === this.order ? 'true' : 'false'}
            @click=${() => {
              this.#go({ order: o.value === 'importance' ? null : o.value, site: null });
              if (o.value === 'search') requestAnimationFrame(() => this.#focusQuery());
            }}>${o.label}</button>`,
        )}
      </div>
      <label class="search-box">
        <span class="sr-only">${this.order === 'search' ? 'Full-text query' : 'Filter sites by name'}</span>
        <input id="review-q" type="search" autocomplete="off" spellcheck="false" .value=${this.qText}
          placeholder=${this.order === 'search' ? 'Full-text query (Enter)…' : 'Filter by site name…'}
          @input=${this.#onQueryInput} @keydown=${this.#onQueryKey} />
      </label>
      <label class="check include-failed" title="Sites where every fetch failed, robots.txt closed every URL, or only HTTP errors came back: left out of the queue unless ticked">
        <input id="review-include-failed" type="checkbox" .checked=${this.includeFailed}
          @change=${(ev: Event) => this.#go({ include_failed: (ev.target as HTMLInputElement).checked ? '1' : null, site: null })} />
        include dead and closed sites
      </label>
      <label class="check include-platforms" title=${PLATFORM_NOTE}>
        <input id="review-include-platforms" type="checkbox" .checked=${this.includePlatforms}
          @change=${(ev: Event) => this.#go({ include_platforms: (ev.target as HTMLInputElement).checked ? '1' : null, site: null })} />
        show platforms
      </label>
      ${spinner(this.#queue.loading, 'Loading the queue')}
      <div class="spacer"></div>
      ${this.ratedCount
        ? html`<span class="muted small" title="Ratings given on this page since the queue was loaded" data-session-rated=${this.ratedCount}>
            ${int(this.ratedCount)} rated${mins > 0.05 ? html` · ${(this.ratedCount / Math.max(mins, 1 / 60)).toFixed(1)}/min` : nothing}</span>`
        : nothing}
      ${this.librarian && !(this.order === 'search' && !this.q.trim())
        ? html`<span class="range" data-remaining=${remaining}>${int(remaining)} to rate as <strong>${this.librarian}</strong></span>`
        : nothing}
    </div>`;
  }

  #renderEmpty() {
    if (!this.librarian) {
      return html`<section class="panel review-empty"><p class="empty big">
        Reviewing needs a librarian: ratings and decisions are stored under your name.
        <button type="button" class="btn primary" @click=${() => librarian.require()}>Choose a librarian</button></p></section>`;
    }
    if (this.#queue.error) return nothing;
    if (this.order === 'search' && !this.q.trim()) {
      return html`<section class="panel review-empty"><p class="empty big">Type a full-text query above (press <kbd>/</kbd>):
        the queue lists the unrated sites of the pages that match it.</p></section>`;
    }
    if (this.#queue.loading && !this.rows.length) return html`<section class="panel review-empty"><p class="empty big">Loading the queue…</p></section>`;
    return html`<section class="panel review-empty"><p class="empty big">${this.q
      ? html`No unrated site matches “${this.q}”.`
      : html`No site left to rate. <a href="#/crawl">Crawl</a> to find more.`}</p></section>`;
  }

  /** card is what the review card of row shows, with what its controls do. */
  #card(row: Entry): Card {
    return {
      row,
      review: this.review,
      reviewError: this.reviewError,
      note: this.note,
      noteState: this.noteState,
      editSel: this.editSel,
      textOf: this.textOf,
      rate: (n) => this.#rate(n),
      typeNote: (text) => {
        this.note = text;
        this.#noteEdited = true;
        this.noteState = '';
      },
      noteKey: this.#onNoteKey,
      advance: () => this.#advance(),
      reject: () => this.#reject(),
      editSelection: (edit) => (this.editSel = edit),
      saveSelection: (status, edit) => void this.#select(status, { subject: edit.subject, note: edit.note }),
      openText: (url) => (this.textOf = url),
    };
  }

  override render() {
    return html`
      ${this.#renderToolbar()}
      ${alertBox(this.#queue.error)}
      ${alertBox(this.actionError)}
      ${renderFlash(this.flash)}
      ${this.actionNote ? html`<p class="action-note muted small" role="status">${this.actionNote}</p>` : nothing}
      ${this.rows.length && this.total === 0 && !this.#queue.loading
        ? html`<p class="queue-done" data-queue-done>All done: you have rated every site${this.q ? html` matching “${this.q}”` : nothing}.
            See how the librarians agree on the <a href="#/agreement">Agreement</a> page.</p>`
        : nothing}
      <div class="review-layout">
        <div class="review-main">${this.current ? renderCard(this.#card(this.current)) : this.#renderEmpty()}</div>
        ${renderQueue(this.rows, this.cur, this.order, this.total, (i) => this.#show(i))}
      </div>
      <p class="hint review-keys">
        <kbd>1</kbd>–<kbd>4</kbd> rate and go to the next site · <kbd>j</kbd>/<kbd>k</kbd> move in the queue ·
        <kbd>n</kbd> note (<kbd>Enter</kbd> saves it, <kbd>Esc</kbd> leaves it) · <kbd>a</kbd> nominate / approve ·
        <kbd>r</kbd> reject · <kbd>/</kbd> search
      </p>
      ${this.excluded && !this.includeFailed
        ? html`<p class="excluded-note muted small" data-excluded=${this.excluded}>
            ${int(this.excluded)} ${this.excluded === 1 ? 'site' : 'sites'} left out: dead, closed to robots or errors only.</p>`
        : nothing}
      ${this.platformsLeftOut && !this.includePlatforms
        ? html`<p class="excluded-note muted small" data-platforms-left-out=${this.platformsLeftOut}>
            ${int(this.platformsLeftOut)} platform ${this.platformsLeftOut === 1 ? 'site' : 'sites'} left out. ${PLATFORM_NOTE}</p>`
        : nothing}
      <ss-explainer raw .text=${`${EXPLAIN.importance} ${EXPLAIN.pagerank}`}></ss-explainer>
    `;
  }
}

customElements.define('ss-review', ReviewView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-review': ReviewView;
  }
}
