// The review card of ss-review (review-view.ts): the site shown, its
// standing, the librarian's rating and note, its selection, the other
// librarians' ratings, its most important pages and its links; and the line
// that says what the last rating was. The view holds the state and passes
// it in with the actions the card's controls call.

import { html, nothing } from 'lit';
import type { ReviewPage, SelectionStatus, SiteLink, StoredRating } from './api';
import { archiveText } from './archive-cells';
import { crawlStatusBadge, errorsByClass, isSiteCrawlStatus, STATUS_INFO } from './crawl-health';
import { standingStats } from './explainer';
import { int, score } from './format';
import { alertBox } from './loader';
import './captured-panel';
import './page-text';
import './rating-legend';
import { href, siteHref } from './router';
import { advanceLabel, advanceTo, offered, statusBadge, workflow } from './selection-ui';
import { coreColour, coreName } from './site-graph';
import { sparkline } from './sparkline';
import './rank-basis';
import type { Entry } from './review-queue';

/** LINKS_SHOWN is how many linking / linked sites the card lists before "more". */
const LINKS_SHOWN = 8;

/** Flash tells what the last rating was, with the other librarians' ratings, now shown. */
export interface Flash {
  site: string;
  rating: number;
  others: StoredRating[] | null;
  error: string;
}

export type NoteState = '' | 'pending' | 'saving' | 'saved';

/** SelectionEdit is the subject and selection note being edited. */
export interface SelectionEdit {
  subject: string;
  note: string;
}

/** Card is what the card shows of the view's state, and the actions its controls call. */
export interface Card {
  row: Entry;
  /** review is the review data of a site, null while it loads (one of another site is not shown). */
  review: ReviewPage | null;
  reviewError: string;
  note: string;
  noteState: NoteState;
  editSel: SelectionEdit | null;
  /** textOf is the URL of the top page whose text is open, '' for none. */
  textOf: string;
  rate(n: number): void;
  typeNote(text: string): void;
  noteKey(ev: KeyboardEvent): void;
  advance(): void;
  reject(): void;
  editSelection(edit: SelectionEdit | null): void;
  saveSelection(status: SelectionStatus, edit: SelectionEdit): void;
  openText(url: string): void;
}

/** renderCard is the review card of c.row. */
export function renderCard(c: Card) {
  const row = c.row;
  const r = c.review?.site === row.site ? c.review : null;
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
    <ss-rank-basis compact></ss-rank-basis>
    <div class="review-stats">
      ${standingStats(r ?? row, r?.opic ?? row.opic, r?.pagerank ?? row.pagerank)}
      <div class="stat"><span class="k">Pages</span><span class="v" data-pages>${int(r?.pages_count ?? row.pages)}</span></div>
      <div class="stat"><span class="k">In-sites</span><span class="v">${int(r?.in_sites ?? row.in_sites)}</span></div>
      <div class="stat"><span class="k">Out-sites</span><span class="v">${int(r?.out_sites ?? row.out_sites)}</span></div>
      <div class="stat spark"><span class="k">Importance over the crawl</span>${r ? sparkline(r.opic_series) : html`<span class="muted small">…</span>`}</div>
    </div>
    ${archiveText(r?.archive) ? html`<p class="review-archive" data-archived>Already in our archive: ${archiveText(r?.archive)}</p>` : nothing}
    ${renderRatingBox(c, row, r)}
    ${alertBox(c.reviewError)}
    <ss-captured hideable .site=${row.site}></ss-captured>
    ${renderSelection(c, row, r)}
    <ss-rating-legend></ss-rating-legend>
    <div class="review-body">
      <section class="review-pages">
        <h3>Most important pages <span class="count muted">${r ? `${int(pages.length)} of ${int(r.pages_count)}` : ''}</span></h3>
        ${!r
          ? html`<p class="muted small">Loading…</p>`
          : pages.length === 0
            ? renderNoPages(r)
            : html`<ol class="top-pages">
                ${pages.map(
                  (p) => html`<li data-page=${p.url}>
                    <div class="tp-head">
                      <a class="tp-title" href=${p.url} target="_blank" rel="noopener noreferrer">${p.title || p.url}</a>
                      <span class="muted small nowrap" title="Links from pages of other sites · link depth from the seeds">
                        ${int(p.in_links)} in-links · depth ${p.depth}</span>
                      <button type="button" class="btn small-btn" data-open-text aria-expanded=${c.textOf === p.url ? 'true' : 'false'}
                        title="Read the page's text as sitesift kept it: its main text, or the whole page"
                        @click=${() => c.openText(c.textOf === p.url ? '' : p.url)}>${c.textOf === p.url ? 'Hide text' : 'Text'}</button>
                    </div>
                    <div class="tp-url" title=${p.url}>${p.url}</div>
                    ${c.textOf === p.url
                      ? html`<ss-page-text .url=${p.url}></ss-page-text>`
                      : p.text
                        ? html`<p class="tp-text">${p.text}</p>`
                        : nothing}
                  </li>`,
                )}
              </ol>`}
      </section>
      <div class="review-side">
        ${renderOthers(row, r)}
        ${r
          ? html`${renderLinks(row.site, 'Linked from', r.in_links, 'in', 'No other site links here.')}
            ${renderLinks(row.site, 'Links to', r.out_links, 'out', 'It links to no other site.')}`
          : nothing}
      </div>
    </div>
  </section>`;
}

/** renderNoPages says why a site has no page to show: how its crawl went, its failed fetches by class. */
function renderNoPages(r: ReviewPage) {
  const st = r.crawl_status;
  if (!r.errors && (!st || st === 'ok')) return html`<p class="empty small">No page of this site was crawled.</p>`;
  return html`<div class="review-failed" data-crawl-status=${st}>
    <p class="small"><span class="label">Crawl</span> ${crawlStatusBadge(st)}
      ${isSiteCrawlStatus(st) ? STATUS_INFO[st].sentence : nothing}</p>
    ${r.errors
      ? html`<p class="small" data-failed-fetches>${int(r.errors)} ${r.errors === 1 ? 'fetch' : 'fetches'} failed: ${errorsByClass(r.errors_by_class)}</p>`
      : nothing}
  </div>`;
}

/** renderFlash is the line saying what the last rating was and what the others gave, nothing without one. */
export function renderFlash(f: Flash | null) {
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

function renderLinks(site: string, title: string, links: SiteLink[] | null | undefined, attr: string, empty: string) {
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
            ? html`<li class="more muted small"><a href=${siteHref(site)}>+ ${int(all.length - shown.length)} more on the site page</a></li>`
            : nothing}
        </ul>`}
  </section>`;
}

function renderRatingBox(c: Card, row: Entry, r: ReviewPage | null) {
  const mine = row.rated ?? (r?.rating?.rating || null);
  const hint =
    c.noteState === 'saved'
      ? 'Note saved.'
      : c.noteState === 'saving'
        ? 'Saving…'
        : c.noteState === 'pending'
          ? 'Not saved yet: Enter keeps it.'
          : mine !== null
            ? 'Enter saves it with your rating.'
            : 'Enter keeps it without a rating; rating saves it too; a / r also make it the selection note.';
  return html`<div class="review-rate">
    <div class="segmented big" role="group" aria-label="Your rating" data-rating=${mine ?? ''}>
      ${[1, 2, 3, 4].map(
        (n) => html`<button type="button" class="seg r${n} ${mine === n ? 'on' : ''}" data-rate=${n} aria-pressed=${mine === n ? 'true' : 'false'}
          title="Rate ${n} and go to the next site (key ${n})" @click=${() => c.rate(n)}>${n}</button>`,
      )}
    </div>
    <span class="scale muted small">1 least · 4 most worth archiving</span>
    <label class="note-field">
      <span class="sr-only">Note</span>
      <input id="review-note" type="text" autocomplete="off" placeholder="Note (n)…" .value=${c.note}
        @input=${(e: Event) => c.typeNote((e.target as HTMLInputElement).value)}
        @keydown=${c.noteKey} />
      <span class="note-hint muted small" data-note-state=${c.noteState}>${hint}</span>
    </label>
  </div>`;
}

function renderSelection(c: Card, row: Entry, r: ReviewPage | null) {
  const sel = r?.selection;
  const status = sel?.status ?? row.status;
  const to = advanceTo(status);
  const who = sel ? workflow(sel) : '';
  const edit = c.editSel;
  return html`<section class="review-selection" data-status=${status}>
    <div class="sel-line">
      <span class="label">Selection</span>
      ${statusBadge(status)}
      ${who ? html`<span class="small sel-workflow">${who}</span>` : nothing}
      <span class="spacer"></span>
      ${to && !offered(status, to, sel ? sel.nominated_by : null)
        ? nothing
        : html`<button type="button" class="btn small-btn" data-action="advance" ?disabled=${!to} title="Key a"
            @click=${() => c.advance()}><kbd>a</kbd> ${advanceLabel(status)}</button>`}
      ${offered(status, 'rejected', null)
        ? html`<button type="button" class="btn small-btn danger" data-action="reject" ?disabled=${status === 'rejected'} title="Key r"
            @click=${() => c.reject()}><kbd>r</kbd> Reject</button>`
        : nothing}
      ${edit
        ? nothing
        : html`<button type="button" class="btn small-btn" data-action="edit-selection" ?disabled=${!sel}
            @click=${() => c.editSelection({ subject: sel?.subject ?? '', note: sel?.note ?? '' })}>Edit subject and note</button>`}
    </div>
    ${edit
      ? html`<form class="sel-edit" @submit=${(ev: Event) => {
          ev.preventDefault();
          c.saveSelection(status, edit);
        }} @keydown=${(ev: KeyboardEvent) => {
          if (ev.key === 'Escape') {
            ev.preventDefault();
            c.editSelection(null);
          }
        }}>
          <input id="review-subject" type="text" placeholder="Subject" .value=${edit.subject}
            @input=${(e: Event) => c.editSelection({ ...edit, subject: (e.target as HTMLInputElement).value })} />
          <input id="review-selnote" type="text" placeholder="Selection note" .value=${edit.note}
            @input=${(e: Event) => c.editSelection({ ...edit, note: (e.target as HTMLInputElement).value })} />
          <button type="submit" class="btn small-btn primary">Save</button>
          <button type="button" class="btn small-btn" @click=${() => c.editSelection(null)}>Cancel</button>
        </form>`
      : sel && (sel.subject || sel.note)
        ? html`<div class="sel-fields">
            ${sel.subject ? html`<span><span class="muted">Subject</span> <span data-subject>${sel.subject}</span></span>` : nothing}
            ${sel.note ? html`<span><span class="muted">Note</span> <span data-selection-note>${sel.note}</span></span>` : nothing}
          </div>`
        : nothing}
  </section>`;
}

function renderOthers(row: Entry, r: ReviewPage | null) {
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
