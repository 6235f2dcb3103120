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

import { html, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import {
  api,
  isAbort,
  message,
  type QueueItem,
  type QueueOrder,
  type ReviewPage,
  type SelectionStatus,
  type SiteLink,
  type StoredRating,
} from './api';
import { LightElement } from './base';
import { EXPLAIN, RawController, standingStats } from './explainer';
import { int, rank, score, snippetHTML } from './format';
import './page-text';
import './rating-legend';
import { hasModifier, isTyping, windowKeys } from './keys';
import { alertBox, Loader, spinner } from './loader';
import { href, navigate, siteHref } from './router';
import { advanceLabel, advanceTo, statusBadge, workflow } from './selection-ui';
import { coreColour, coreName } from './site-graph';
import { sparkline } from './sparkline';
import { librarian, ratingsSettled, writeRating } from './state';
import './review-view.css';
import { archiveText } from './archive-cells';
import { PLATFORM_NOTE } from './platforms';

const ORDERS: { value: QueueOrder; label: string; title: string }[] = [
  { value: 'importance', label: 'Importance', title: 'OPIC importance, highest first' },
  { value: 'community', label: 'Community', title: 'Grouped by community (the current communities extraction), each by OPIC' },
  { value: 'biased', label: 'Biased', title: 'PageRank biased towards the sites librarians rated 3–4: sites like those they value first' },
  { value: 'search', label: 'Search', title: 'The sites of the pages matching a full-text query, best page first' },
];

/** QUEUE_LIMIT is how many sites one queue request brings. */
const QUEUE_LIMIT = 50;
/** REFILL_BELOW: the queue is topped up when fewer unrated sites than this are left after the current one. */
const REFILL_BELOW = 10;
/** PREFETCH is how many of the next sites have their review data fetched ahead. */
const PREFETCH = 3;
/** LINKS_SHOWN is how many linking / linked sites the card lists before "more". */
const LINKS_SHOWN = 8;

/** Entry is a queue row with the rating given to it in this session (null: not yet). */
interface Entry extends QueueItem {
  rated: number | null;
}

/**
 * Queue is one load of the queue: its rows, the server's count of sites
 * left, of those left out for their crawl status (undefined from an older
 * server), and the row to show first.
 */
interface Queue {
  rows: Entry[];
  total: number;
  excluded: number | undefined;
  platforms?: number;
  start: number;
}

/** Flash tells what the last rating was, with the other librarians' ratings, now shown. */
interface Flash {
  site: string;
  rating: number;
  others: StoredRating[] | null;
  error: string;
}

type NoteState = '' | 'pending' | 'saving' | 'saved';

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
  declare editSel: { subject: string; note: string } | null;
  declare ratedCount: number;
  /** textOf is the URL of the top page whose text is open on the card, '' for none. */
  declare textOf: string;

  /** ready holds fetched review pages by site; inflight the fetches under way. */
  #ready = new Map<string, ReviewPage>();
  #inflight = new Map<string, Promise<ReviewPage>>();
  /** cacheFor is the librarian the cached pages belong to (the page depends on who asks). */
  #cacheFor = '';
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
    windowKeys(this, this.#onKey);
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

  #resetCache(): void {
    this.#ready.clear();
    this.#inflight.clear();
    this.#cacheFor = this.librarian;
  }

  /** fetchReview returns a site's review page, from the cache unless force. */
  #fetchReview(site: string, force = false): Promise<ReviewPage> {
    if (this.#cacheFor !== this.librarian) this.#resetCache();
    if (!force) {
      const r = this.#ready.get(site);
      if (r) return Promise.resolve(r);
      const f = this.#inflight.get(site);
      if (f) return f;
    }
    const who = this.librarian;
    // After our own rating writes: a page fetched before one lands would show the site unrated.
    const p = ratingsSettled().then(() => api.review(site, who));
    this.#inflight.set(site, p);
    p.then(
      (r) => {
        if (this.#inflight.get(site) === p) this.#inflight.delete(site);
        if (this.#cacheFor === who) this.#ready.set(site, r);
      },
      () => {
        if (this.#inflight.get(site) === p) this.#inflight.delete(site);
      },
    );
    return p;
  }

  #forget(site: string): void {
    this.#ready.delete(site);
    this.#inflight.delete(site);
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
    this.#resetCache();
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
          const i = this.#nextUnrated(this.cur);
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

  #unratedAfter(i: number): number {
    let n = 0;
    for (let k = i + 1; k < this.rows.length; k++) if (this.rows[k]!.rated === null) n++;
    return n;
  }

  /** nextUnrated is the first unrated row after i, else the first before it, else -1. */
  #nextUnrated(i: number): number {
    for (let k = i + 1; k < this.rows.length; k++) if (this.rows[k]!.rated === null) return k;
    for (let k = 0; k <= Math.min(i, this.rows.length - 1); k++) if (this.rows[k]!.rated === null) return k;
    return -1;
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
    this.review = this.#ready.get(site) ?? null;
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
    if (this.#unratedAfter(i) < REFILL_BELOW && this.rows.filter((r) => r.rated === null).length < this.total) void this.#refill();
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
    this.#forget(site);
    this.actionError = '';
    this.actionNote = '';
    const write = writeRating(site, name, n, note);
    // Move on without waiting for the server; a failed write puts the site back.
    const next = this.#nextUnrated(this.cur);
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
      this.#forget(site);
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
      const r = this.#ready.get(site);
      if (r) this.#ready.set(site, { ...r, selection: sel });
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

  #onKey = (ev: KeyboardEvent) => {
    if (hasModifier(ev) || isTyping(ev) || document.querySelector('.modal')) return;
    // Held keys would rate or decide a run of sites unseen.
    const once = !ev.repeat;
    switch (ev.key) {
      case '1':
      case '2':
      case '3':
      case '4':
        ev.preventDefault();
        if (!once) return;
        if (!this.librarian) void librarian.require();
        else this.#rate(Number(ev.key));
        return;
      case 'j':
      case 'ArrowDown':
        ev.preventDefault();
        this.#move(1);
        return;
      case 'k':
      case 'ArrowUp':
        ev.preventDefault();
        this.#move(-1);
        return;
      case 'n':
        if (!this.current) return;
        ev.preventDefault(); // the "n" must not land in the field
        this.#focusNote();
        return;
      case 'a':
        ev.preventDefault();
        if (!once) return;
        if (!this.librarian) void librarian.require();
        else this.#advance();
        return;
      case 'r':
        ev.preventDefault();
        if (!once) return;
        if (!this.librarian) void librarian.require();
        else this.#reject();
        return;
      case '/':
        ev.preventDefault();
        this.#focusQuery();
        return;
    }
  };

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

  #onQueryKey = (ev: KeyboardEvent) => {
    const box = ev.target as HTMLInputElement;
    if (ev.key === 'Enter') {
      ev.preventDefault();
      window.clearTimeout(this.#qTimer);
      this.#go({ q: this.qText.trim() || null, site: null });
      box.blur(); // back to the keys
    } else if (ev.key === 'Escape') {
      ev.preventDefault();
      box.blur();
    }
  };

  #onNoteKey = (ev: KeyboardEvent) => {
    const box = ev.target as HTMLInputElement;
    if (ev.key === 'Enter') {
      ev.preventDefault();
      void this.#saveNote();
      box.blur();
    } else if (ev.key === 'Escape') {
      ev.preventDefault();
      box.blur();
    }
  };

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

  #renderFlash() {
    const f = this.flash;
    if (!f) return nothing;
    const others = f.others;
    return html`<div class="review-flash" data-flash=${f.site} role="status">
      <span class="ok-mark" aria-hidden="true">✓</span>
      <a href=${siteHref(f.site)}>${f.site}</a> rated <span class="rating r${f.rating}">${f.rating}</span>
      <span class="muted">·</span>
      ${others === null
        ? html`<span class="muted">saving…</span>`
        : others.length === 0
          ? html`<span class="muted">no other librarian has rated it yet</span>`
          : html`<span class="muted">others:</span>
              ${others.map((r) => html`<span class="other" title=${r.note || ''}>${r.librarian} <span class="rating r${r.rating}">${r.rating}</span></span>`)}`}
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

  #renderLinks(title: string, links: SiteLink[] | null | undefined, attr: string, empty: string) {
    const all = links ?? [];
    const shown = all.slice(0, LINKS_SHOWN);
    return html`<section class="review-links" data-links=${attr}>
      <h3>${title} <span class="count muted">${int(all.length)}</span>
        ${all.length ? html`<span class="links-caption muted" title="Each site's importance, 0–100 of the top site's">importance</span>` : nothing}</h3>
      ${all.length === 0
        ? html`<p class="empty small">${empty}</p>`
        : html`<ul class="link-list">
            ${shown.map(
              (l) => html`<li data-site=${l.site}>
                <a href=${siteHref(l.site)} title="Open ${l.site}">${l.site}</a>
                <span class="num muted" data-score=${l.opic_score ?? ''} title="Importance of ${l.site}, 0–100 of the top site's">${score(l.opic_score)}</span>
              </li>`,
            )}
            ${all.length > shown.length
              ? html`<li class="more muted small"><a href=${siteHref(this.current?.site ?? '')}>+ ${int(all.length - shown.length)} more on the site page</a></li>`
              : nothing}
          </ul>`}
    </section>`;
  }

  #renderRatingBox(row: Entry, r: ReviewPage | null) {
    const mine = row.rated ?? (r?.rating?.rating || null);
    const hint =
      this.noteState === 'saved'
        ? 'Note saved.'
        : this.noteState === 'saving'
          ? 'Saving…'
          : this.noteState === 'pending'
            ? 'Not saved yet: Enter keeps it.'
            : mine !== null
              ? 'Enter saves it with your rating.'
              : 'Enter keeps it without a rating; rating saves it too; a / r also make it the selection note.';
    return html`<div class="review-rate">
      <div class="segmented big" role="group" aria-label="Your rating" data-rating=${mine ?? ''}>
        ${[1, 2, 3, 4].map(
          (n) => html`<button type="button" class="seg r${n} ${mine === n ? 'on' : ''}" data-rate=${n} aria-pressed=${mine === n ? 'true' : 'false'}
            title="Rate ${n} and go to the next site (key ${n})" @click=${() => this.#rate(n)}>${n}</button>`,
        )}
      </div>
      <span class="scale muted small">1 least · 4 most worth archiving</span>
      <label class="note-field">
        <span class="sr-only">Note</span>
        <input id="review-note" type="text" autocomplete="off" placeholder="Note (n)…" .value=${this.note}
          @input=${(e: Event) => {
            this.note = (e.target as HTMLInputElement).value;
            this.#noteEdited = true;
            this.noteState = '';
          }}
          @keydown=${this.#onNoteKey} />
        <span class="note-hint muted small" data-note-state=${this.noteState}>${hint}</span>
      </label>
    </div>`;
  }

  #renderSelection(row: Entry, r: ReviewPage | null) {
    const sel = r?.selection;
    const status = sel?.status ?? row.status;
    const to = advanceTo(status);
    const who = sel ? workflow(sel) : '';
    const edit = this.editSel;
    return html`<section class="review-selection" data-status=${status}>
      <div class="sel-line">
        <span class="label">Selection</span>
        ${statusBadge(status)}
        ${who ? html`<span class="small sel-workflow">${who}</span>` : nothing}
        <span class="spacer"></span>
        <button type="button" class="btn small-btn" data-action="advance" ?disabled=${!to} title="Key a"
          @click=${() => this.#advance()}><kbd>a</kbd> ${advanceLabel(status)}</button>
        <button type="button" class="btn small-btn danger" data-action="reject" ?disabled=${status === 'rejected'} title="Key r"
          @click=${() => this.#reject()}><kbd>r</kbd> Reject</button>
        ${edit
          ? nothing
          : html`<button type="button" class="btn small-btn" data-action="edit-selection" ?disabled=${!sel}
              @click=${() => (this.editSel = { subject: sel?.subject ?? '', note: sel?.note ?? '' })}>Edit subject and note</button>`}
      </div>
      ${edit
        ? html`<form class="sel-edit" @submit=${(ev: Event) => {
            ev.preventDefault();
            void this.#select(status, { subject: edit.subject, note: edit.note });
          }} @keydown=${(ev: KeyboardEvent) => {
            if (ev.key === 'Escape') {
              ev.preventDefault();
              this.editSel = null;
            }
          }}>
            <input id="review-subject" type="text" placeholder="Subject" .value=${edit.subject}
              @input=${(e: Event) => (this.editSel = { ...edit, subject: (e.target as HTMLInputElement).value })} />
            <input id="review-selnote" type="text" placeholder="Selection note" .value=${edit.note}
              @input=${(e: Event) => (this.editSel = { ...edit, note: (e.target as HTMLInputElement).value })} />
            <button type="submit" class="btn small-btn primary">Save</button>
            <button type="button" class="btn small-btn" @click=${() => (this.editSel = null)}>Cancel</button>
          </form>`
        : sel && (sel.subject || sel.note)
          ? html`<div class="sel-fields">
              ${sel.subject ? html`<span><span class="muted">Subject</span> <span data-subject>${sel.subject}</span></span>` : nothing}
              ${sel.note ? html`<span><span class="muted">Note</span> <span data-selection-note>${sel.note}</span></span>` : nothing}
            </div>`
          : nothing}
    </section>`;
  }

  #renderOthers(row: Entry, r: ReviewPage | null) {
    if (!r) return nothing;
    // A note alone (rating 0) is no rating: the others stay hidden.
    const rated = (row.rated ?? (r.rating?.rating || null)) !== null;
    const others = r.ratings ?? [];
    return html`<section class="review-others" data-others=${others.length}>
      <h3>Other librarians</h3>
      ${!rated
        ? html`<p class="muted small">${r.others_rated
            ? html`<span data-withheld=${r.others_rated}>${int(r.others_rated)} other ${r.others_rated === 1 ? 'librarian has' : 'librarians have'} rated this site: their ratings are hidden until you rate it.</span>`
            : 'No one else has rated this site yet.'}</p>`
        : others.length === 0
          ? html`<p class="muted small">No one else has rated this site yet.</p>`
          : html`<ul class="others-list">${others.map(
              (o) => html`<li data-librarian=${o.librarian}><span class="who">${o.librarian}</span>
                <span class="rating r${o.rating}">${o.rating}</span>${o.note ? html`<span class="note">${o.note}</span>` : nothing}</li>`,
            )}</ul>`}
    </section>`;
  }

  #renderCard() {
    const row = this.current;
    if (!row) return this.#renderEmpty();
    const r = this.review?.site === row.site ? this.review : null;
    const pages = r?.top_pages ?? [];
    const comms = r?.communities ?? [];
    return html`<section class="panel review-card" data-site=${row.site} aria-busy=${r ? 'false' : 'true'}>
      <div class="card-head">
        <h2 class="review-site"><a href=${siteHref(row.site)} title="Open the site page">${row.site}</a></h2>
        ${statusBadge(r?.selection.status ?? row.status)}
        <span class="spacer"></span>
        <a class="btn small-btn" href=${href('/search', { q: `site:${row.site}` })} title="Search the pages of this site">Search this site</a>
        <a class="btn small-btn" href=${`http://${row.site}/`} target="_blank" rel="noopener noreferrer">Open ↗</a>
      </div>
      <div class="card-communities">
        <span class="label">Community</span>
        ${comms.map(
          (c) => html`<span class="community-chip" title="${c.role} of ${coreName(c.core)} (seed ${c.seed})" data-core=${c.core}>
            <span class="swatch" style="background:${coreColour(c.core)}"></span>${coreName(c.core)} · ${c.role}</span>`,
        )}
        ${r && comms.length === 0 ? html`<span class="muted small">in no community of the current extraction</span>` : nothing}
        ${r ? nothing : html`<span class="muted small">…</span>`}
      </div>
      <div class="review-stats">
        ${standingStats(r ?? row, r?.opic ?? row.opic, r?.pagerank ?? row.pagerank)}
        <div class="stat"><span class="k">Pages</span><span class="v" data-pages>${int(r?.pages_count ?? row.pages)}</span></div>
        <div class="stat"><span class="k">In-sites</span><span class="v">${int(r?.in_sites ?? row.in_sites)}</span></div>
        <div class="stat"><span class="k">Out-sites</span><span class="v">${int(r?.out_sites ?? row.out_sites)}</span></div>
        <div class="stat spark"><span class="k">Importance over the crawl</span>${r ? sparkline(r.opic_series) : html`<span class="muted small">…</span>`}</div>
      </div>
      ${archiveText(r?.archive) ? html`<p class="review-archive" data-archived>Already in our archive: ${archiveText(r?.archive)}</p>` : nothing}
      ${this.#renderRatingBox(row, r)}
      <ss-rating-legend></ss-rating-legend>
      ${this.#renderSelection(row, r)}
      ${alertBox(this.reviewError)}
      <div class="review-body">
        <section class="review-pages">
          <h3>Most important pages <span class="count muted">${r ? `${int(pages.length)} of ${int(r.pages_count)}` : ''}</span></h3>
          ${!r
            ? html`<p class="muted small">Loading…</p>`
            : pages.length === 0
              ? html`<p class="empty small">No page of this site was crawled.</p>`
              : html`<ol class="top-pages">
                  ${pages.map(
                    (p) => html`<li data-page=${p.url}>
                      <div class="tp-head">
                        <a class="tp-title" href=${p.url} target="_blank" rel="noopener noreferrer">${p.title || p.url}</a>
                        <span class="muted small nowrap" title="Links from pages of other sites · link depth from the seeds">
                          ${int(p.in_links)} in-links · depth ${p.depth}</span>
                        <button type="button" class="btn small-btn" data-open-text aria-expanded=${this.textOf === p.url ? 'true' : 'false'}
                          title="Read the page's text as sitesift kept it: its main text, or the whole page"
                          @click=${() => (this.textOf = this.textOf === p.url ? '' : p.url)}>${this.textOf === p.url ? 'Hide text' : 'Text'}</button>
                      </div>
                      <div class="tp-url" title=${p.url}>${p.url}</div>
                      ${this.textOf === p.url
                        ? html`<ss-page-text .url=${p.url}></ss-page-text>`
                        : p.text
                          ? html`<p class="tp-text">${p.text}</p>`
                          : nothing}
                    </li>`,
                  )}
                </ol>`}
        </section>
        <div class="review-side">
          ${this.#renderOthers(row, r)}
          ${r
            ? html`${this.#renderLinks('Linked from', r.in_links, 'in', 'No other site links here.')}
              ${this.#renderLinks('Links to', r.out_links, 'out', 'It links to no other site.')}`
            : nothing}
        </div>
      </div>
    </section>`;
  }

  #renderQueue() {
    const rows = this.rows;
    if (!rows.length) return nothing;
    const maxOpic = rows.reduce((m, r) => Math.max(m, r.opic), 0);
    return html`<aside class="panel queue-panel">
      <h2>Queue <span class="count">${ORDERS.find((o) => o.value === this.order)?.label.toLowerCase()}</span></h2>
      <ol class="queue-list">
        ${rows.map((r, i) => {
          const w = maxOpic > 0 ? Math.max(2, (r.opic / maxOpic) * 100) : 0;
          return html`<li data-site=${r.site} data-rated=${r.rated ?? ''} class="${i === this.cur ? 'current' : ''} ${r.rated !== null ? 'rated' : ''}"
            aria-current=${i === this.cur ? 'true' : 'false'} @click=${() => this.#show(i)}>
            <span class="q-site">${r.site}</span>
            ${r.rated !== null
              ? html`<span class="rating r${r.rated}">${r.rated}</span>`
              : r.status !== 'candidate'
                ? html`<span class="sel-dot sel-${r.status}" title=${r.status}></span>`
                : nothing}
            ${r.community !== undefined
              ? html`<span class="swatch" title=${coreName(r.community)} style="background:${coreColour(r.community)}"></span>`
              : nothing}
            <span class="q-bar" title="Importance ${score(r.opic_score)} of 100, ${rank(r.opic_rank)}"><span style="width:${w}%"></span></span>
            ${r.title ? html`<span class="q-title">${r.title}</span>` : nothing}
            ${r.snippet ? html`<span class="q-snippet">${unsafeHTML(snippetHTML(r.snippet))}</span>` : nothing}
          </li>`;
        })}
      </ol>
      ${rows.filter((r) => r.rated === null).length < this.total
        ? html`<p class="muted small">${int(this.total - rows.filter((r) => r.rated === null).length)} more after these; the queue tops itself up.</p>`
        : nothing}
    </aside>`;
  }

  override render() {
    return html`
      ${this.#renderToolbar()}
      <ss-explainer raw .text=${`${EXPLAIN.importance} ${EXPLAIN.pagerank}`}></ss-explainer>
      ${alertBox(this.#queue.error)}
      ${alertBox(this.actionError)}
      ${this.#renderFlash()}
      ${this.excluded && !this.includeFailed
        ? html`<p class="excluded-note muted small" data-excluded=${this.excluded}>
            ${int(this.excluded)} ${this.excluded === 1 ? 'site' : 'sites'} left out: dead, closed to robots or errors only.</p>`
        : nothing}
      ${this.platformsLeftOut && !this.includePlatforms
        ? html`<p class="excluded-note muted small" data-platforms-left-out=${this.platformsLeftOut}>
            ${int(this.platformsLeftOut)} platform ${this.platformsLeftOut === 1 ? 'site' : 'sites'} left out. ${PLATFORM_NOTE}</p>`
        : nothing}
      ${this.actionNote ? html`<p class="action-note muted small" role="status">${this.actionNote}</p>` : nothing}
      ${this.rows.length && this.total === 0 && !this.#queue.loading
        ? html`<p class="queue-done" data-queue-done>All done: you have rated every site${this.q ? html` matching “${this.q}”` : nothing}.
            See how the librarians agree on the <a href="#/agreement">Agreement</a> page.</p>`
        : nothing}
      <div class="review-layout">
        <div class="review-main">${this.#renderCard()}</div>
        ${this.#renderQueue()}
      </div>
      <p class="hint review-keys">
        <kbd>1</kbd>–<kbd>4</kbd> rate and go to the next site · <kbd>j</kbd>/<kbd>k</kbd> move in the queue ·
        <kbd>n</kbd> note (<kbd>Enter</kbd> saves it, <kbd>Esc</kbd> leaves it) · <kbd>a</kbd> nominate / approve ·
        <kbd>r</kbd> reject · <kbd>/</kbd> search
      </p>
    `;
  }
}

/** queueRowOf makes a queue row of a review page, for a site asked for by name rather than found in the queue. */
function queueRowOf(p: ReviewPage): QueueItem {
  return {
    site: p.site,
    opic: p.opic,
    pagerank: p.pagerank,
    opic_rank: p.opic_rank,
    opic_score: p.opic_score,
    pagerank_rank: p.pagerank_rank,
    pagerank_score: p.pagerank_score,
    pages: p.pages_count,
    in_sites: p.in_sites,
    out_sites: p.out_sites,
    status: p.selection.status,
  };
}

customElements.define('ss-review', ReviewView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-review': ReviewView;
  }
}
