// What imported archives and the Common Crawl host graph say of a site, as
// the Sites table shows it (an "Archived" column and filter, Common Crawl's
// PageRank and harmonic centrality beside sitesift's measures) and as the
// review card says it ("already in our archive: 1,204 captures, 2009–2024").

import { html, nothing } from 'lit';
import type { SiteArchive } from './api';
import { int, sig } from './format';

/** ArchiveShown says which archive columns a table shows. */
export interface ArchiveShown {
  archive: boolean;
  cc: boolean;
}

/** years is "2009–2024", or "2014" when the captures lie in one year. */
function years(a: SiteArchive): string {
  if (!a.first || !a.last) return '';
  const f = new Date(a.first).getUTCFullYear();
  const l = new Date(a.last).getUTCFullYear();
  return f === l ? String(f) : `${f}–${l}`;
}

/** archiveText is what the archive holds of a site in words; '' when it holds nothing. */
export function archiveText(a: SiteArchive | null | undefined): string {
  if (!a || !a.captures) return '';
  const y = years(a);
  return `${int(a.captures)} capture${a.captures === 1 ? '' : 's'} of ${int(a.urls)} URL${a.urls === 1 ? '' : 's'}${y ? `, ${y}` : ''}`;
}

export function archiveHeaders(shown: ArchiveShown) {
  return html`${shown.archive
    ? html`<th class="col-archived" scope="col" title="What the imported archive indexes (CDX) hold of the site: captures, URLs, years">Archived</th>`
    : nothing}${shown.cc
    ? html`<th class="num col-cc" scope="col" title="Common Crawl's host-graph PageRank and harmonic centrality, as imported">CC PageRank</th>
        <th class="num col-cc" scope="col" title="Common Crawl's harmonic centrality">CC harmonic</th>`
    : nothing}`;
}

export function archiveCells(a: SiteArchive | undefined, shown: ArchiveShown) {
  return html`${shown.archive
    ? html`<td class="col-archived" data-archived=${a?.captures ? 'yes' : 'no'} title=${archiveText(a)}>${a?.captures
        ? html`${int(a.captures)} <span class="muted small">${years(a)}</span>`
        : html`<span class="muted">—</span>`}</td>`
    : nothing}${shown.cc
    ? html`<td class="num col-cc">${a?.cc_pagerank !== undefined ? sig(a.cc_pagerank) : ''}</td>
        <td class="num col-cc">${a?.cc_harmonic !== undefined ? sig(a.cc_harmonic) : ''}</td>`
    : nothing}`;
}

/** archiveFilter is the select of the archive filter; change gets 'yes', 'no' or ''. */
export function archiveFilter(value: string, change: (v: string) => void) {
  return html`<label class="status-filter">
    <span class="sr-only">Filter sites by what the archive holds</span>
    <select id="site-archived-filter" .value=${value} title="Show only the sites the imported archive holds, or only those it lacks"
      @change=${(ev: Event) => change((ev.target as HTMLSelectElement).value)}>
      <option value="" ?selected=${value === ''}>Archived or not</option>
      <option value="yes" ?selected=${value === 'yes'}>Already archived</option>
      <option value="no" ?selected=${value === 'no'}>Not in the archive</option>
    </select>
  </label>`;
}
