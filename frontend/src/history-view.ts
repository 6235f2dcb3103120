// ss-history: `#/history?site=&librarian=` — the Selection history, read
// from the audit log (GET /api/audit): who rated, noted, nominated,
// approved, rejected or reopened which site, who started crawls and
// imports, changed settings or accounts, when, from which address, and
// what the decision changed (the server's summary: which account changed
// and how, which librarian was added, where a site moved). The log is
// append-only: nothing here edits it.

import { html, nothing } from 'lit';
import { request, type Answer } from './api';
import { LightElement } from './base';
import { alertBox, Loader, spinner } from './loader';
import { href, navigate, siteHref } from './router';
import './history-view.css';

type Row = NonNullable<Answer<'GET /api/audit'>>[number];

/** LIMIT is the rows one page shows: the newest. */
const LIMIT = 200;

/** change says in words what a row records: the server's summary of its states (GET /api/audit). */
function change(r: Row): string {
  if (r.withheld) return 'shown once you have rated the site';
  return r.summary;
}

export class HistoryView extends LightElement {
  static override properties = { params: { attribute: false } };
  declare params: URLSearchParams;

  #rows = new Loader<Row[]>(this, []);

  constructor() {
    super();
    this.params = new URLSearchParams();
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('params')) void this.#load();
  }

  #load(): Promise<unknown> {
    const q = new URLSearchParams({ limit: String(LIMIT) });
    for (const k of ['site', 'librarian', 'since']) {
      const v = this.params.get(k);
      if (v) q.set(k, v);
    }
    return this.#rows.run((signal) => request<Row[]>('GET', `/api/audit?${q}`, undefined, signal));
  }

  #filter = (ev: Event) => {
    ev.preventDefault();
    const f = ev.target as HTMLFormElement;
    const v = (n: string) => (f.elements.namedItem(n) as HTMLInputElement).value.trim();
    navigate(href('/history', { site: v('site'), librarian: v('librarian') }));
  };

  override render() {
    const rows = this.#rows.value ?? [];
    return html`<section class="panel history">
      <h2>Selection history <span class="count">${rows.length}${rows.length === LIMIT ? '+' : ''}</span></h2>
      <p class="muted">Every decision, newest first: who made it, when, from which address, and what it changed. The log is
        append-only; nothing here edits it.</p>
      <form class="history-filter" @submit=${this.#filter}>
        <label class="field"><span>Site</span><input name="site" id="history-site" .value=${this.params.get('site') ?? ''} /></label>
        <label class="field"><span>Librarian</span><input name="librarian" id="history-librarian" .value=${this.params.get('librarian') ?? ''} /></label>
        <button class="btn" type="submit">Show</button>
      </form>
      ${spinner(this.#rows.loading)} ${alertBox(this.#rows.error)}
      ${rows.length === 0 && !this.#rows.loading
        ? html`<p class="muted" id="history-empty">No decision recorded${this.params.get('site') || this.params.get('librarian') ? ' for this filter' : ' yet'}.</p>`
        : nothing}
      ${rows.length
        ? html`<table class="history-table">
            <thead><tr><th>When</th><th>Who</th><th>Action</th><th>Site</th><th>Change</th><th>Address</th></tr></thead>
            <tbody>
              ${rows.map(
                (r) => html`<tr data-audit=${r.id} data-action=${r.action}>
                  <td><time datetime=${r.at}>${new Date(r.at).toLocaleString()}</time></td>
                  <td>
                    ${r.librarian ||
                    html`<span class="muted" title="No librarian named: the command line, or the app before a librarian was chosen">—</span>`}
                  </td>
                  <td>${r.action}</td>
                  <td>${r.site ? html`<a href=${siteHref(r.site)}>${r.site}</a>` : nothing}</td>
                  <td class="history-change">${change(r)}</td>
                  <td class="muted">${r.address}</td>
                </tr>`,
              )}
            </tbody>
          </table>`
        : nothing}
    </section>`;
  }
}

customElements.define('ss-history', HistoryView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-history': HistoryView;
  }
}
