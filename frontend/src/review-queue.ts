// The queue of ss-review (review-view.ts): its orders and sizes, its rows,
// the review pages fetched ahead for them, and the queue panel beside the
// card.

import { html, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { api, type QueueItem, type QueueOrder, type ReviewPage } from './api';
import { int, rank, score, snippetHTML } from './format';
import { coreColour, coreName } from './site-graph';
import { ratingsSettled } from './state';

export const ORDERS: { value: QueueOrder; label: string; title: string }[] = [
  { value: 'importance', label: 'Importance', title: 'OPIC importance, highest first' },
  { value: 'community', label: 'Community', title: 'Grouped by community (the current communities extraction), each by OPIC' },
  { value: 'biased', label: 'Biased', title: 'PageRank biased towards the sites librarians rated 3–4: sites like those they value first' },
  { value: 'search', label: 'Search', title: 'The sites of the pages matching a full-text query, best page first' },
];

/** QUEUE_LIMIT is how many sites one queue request brings. */
export const QUEUE_LIMIT = 50;
/** REFILL_BELOW: the queue is topped up when fewer unrated sites than this are left after the current one. */
export const REFILL_BELOW = 10;
/** PREFETCH is how many of the next sites have their review data fetched ahead. */
export const PREFETCH = 3;

/** Entry is a queue row with the rating given to it in this session (null: not yet). */
export interface Entry extends QueueItem {
  rated: number | null;
}

/**
 * Queue is one load of the queue: its rows, the server's count of sites
 * left, of those left out for their crawl status (undefined from an older
 * server), and the row to show first.
 */
export interface Queue {
  rows: Entry[];
  total: number;
  excluded: number | undefined;
  platforms?: number;
  start: number;
}

/** queueRowOf makes a queue row of a review page, for a site asked for by name rather than found in the queue. */
export function queueRowOf(p: ReviewPage): QueueItem {
  return {
    site: p.site,
    opic: p.opic,
    pagerank: p.pagerank,
    opic_rank: p.opic_rank,
    opic_score: p.opic_score,
    opic_ties: p.opic_ties,
    pagerank_rank: p.pagerank_rank,
    pagerank_score: p.pagerank_score,
    pages: p.pages_count,
    in_sites: p.in_sites,
    out_sites: p.out_sites,
    status: p.selection.status,
  };
}

/** unratedAfter counts the unrated rows after row i. */
export function unratedAfter(rows: Entry[], i: number): number {
  let n = 0;
  for (let k = i + 1; k < rows.length; k++) if (rows[k]!.rated === null) n++;
  return n;
}

/** nextUnrated is the first unrated row after i, else the first before it, else -1. */
export function nextUnrated(rows: Entry[], i: number): number {
  for (let k = i + 1; k < rows.length; k++) if (rows[k]!.rated === null) return k;
  for (let k = 0; k <= Math.min(i, rows.length - 1); k++) if (rows[k]!.rated === null) return k;
  return -1;
}

/**
 * ReviewPages keeps the review pages fetched for one librarian (the page
 * depends on who asks), and the fetches under way, so that the next sites'
 * cards show at once.
 */
export class ReviewPages {
  /** ready holds fetched review pages by site; inflight the fetches under way. */
  readonly ready = new Map<string, ReviewPage>();
  #inflight = new Map<string, Promise<ReviewPage>>();
  /** #for is the librarian the pages belong to. */
  #for = '';

  /** reset forgets every page and keeps those of librarian who from now on. */
  reset(who: string): void {
    this.ready.clear();
    this.#inflight.clear();
    this.#for = who;
  }

  /** fetch returns a site's review page for librarian who, from the cache unless force. */
  fetch(site: string, who: string, force = false): Promise<ReviewPage> {
    if (this.#for !== who) this.reset(who);
    if (!force) {
      const r = this.ready.get(site);
      if (r) return Promise.resolve(r);
      const f = this.#inflight.get(site);
      if (f) return f;
    }
    // After our own rating writes: a page fetched before one lands would show the site unrated.
    const p = ratingsSettled().then(() => api.review(site, who));
    this.#inflight.set(site, p);
    p.then(
      (r) => {
        if (this.#inflight.get(site) === p) this.#inflight.delete(site);
        if (this.#for === who) this.ready.set(site, r);
      },
      () => {
        if (this.#inflight.get(site) === p) this.#inflight.delete(site);
      },
    );
    return p;
  }

  forget(site: string): void {
    this.ready.delete(site);
    this.#inflight.delete(site);
  }
}

/** renderQueue is the queue panel: each row with its rating or selection, community and importance; show(i) makes row i current. */
export function renderQueue(rows: Entry[], cur: number, order: QueueOrder, total: number, show: (i: number) => void) {
  if (!rows.length) return nothing;
  const maxOpic = rows.reduce((m, r) => Math.max(m, r.opic), 0);
  return html`<aside class="panel queue-panel">
    <h2>Queue <span class="count">${ORDERS.find((o) => o.value === order)?.label.toLowerCase()}</span></h2>
    <ol class="queue-list">
      ${rows.map((r, i) => {
        const w = maxOpic > 0 ? Math.max(2, (r.opic / maxOpic) * 100) : 0;
        return html`<li data-site=${r.site} data-rated=${r.rated ?? ''} class="${i === cur ? 'current' : ''} ${r.rated !== null ? 'rated' : ''}"
          aria-current=${i === cur ? 'true' : 'false'} @click=${() => show(i)}>
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
    ${rows.filter((r) => r.rated === null).length < total
      ? html`<p class="muted small">${int(total - rows.filter((r) => r.rated === null).length)} more after these; the queue tops itself up.</p>`
      : nothing}
  </aside>`;
}
