// The Lab page's links comparison (`sitesift lab links`): PageRank on the
// project's editorial links against all its links, drawn from the CSV
// files the run wrote — the measures of agreement from links-summary.csv
// and each graph's top sites side by side from links-top.csv — so that the
// page shows what the downloads hold.

import { html, nothing } from 'lit';
import { int, pct, sig } from './format';
import { siteHref } from './router';

/** LINKS_TOP and LINKS_SUMMARY are the files the page draws from. */
export const LINKS_TOP = 'links-top.csv';
export const LINKS_SUMMARY = 'links-summary.csv';

/** parseCSV reads CSV as written by the server (RFC 4180: quoted cells, "" for a quote, line breaks inside quotes). */
export function parseCSV(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** records reads a CSV with a header row into objects keyed by its columns. */
function records(text: string | undefined): Record<string, string>[] {
  const [head, ...rows] = parseCSV(text ?? '');
  if (!head) return [];
  return rows.map((r) => Object.fromEntries(head.map((k, i) => [k, r[i] ?? ''])));
}

/** place writes a site's place in the other graph's ranking, marked when it is outside the top listed. */
function place(p: string, top: number) {
  const n = Number(p);
  return html`<td class="num other-place ${n > top ? 'outside' : ''}" data-place=${p}
    title=${n > top ? `outside the top ${top} of the other graph` : ''}>${int(n)}</td>`;
}

/** linksFigure draws a links comparison from its files: the measures, then the two top lists side by side. */
export function linksFigure(tables: Record<string, string>) {
  const summary = Object.fromEntries(records(tables[LINKS_SUMMARY]).map((r) => [r.key, r.value]));
  const top = records(tables[LINKS_TOP]);
  const k = Number(summary.top_k ?? top.length);
  const measure = (key: string, label: string, title: string, v: string) =>
    html`<div title=${title}><dt>${label}</dt><dd data-measure=${key}>${v}</dd></div>`;
  return html`<div class="lab-links">
    <dl class="metrics links-measures">
      ${measure('sites', 'Sites', 'The sites of the project, the same in both graphs', int(Number(summary.sites)))}
      ${measure('edges_editorial', 'Editorial site links', 'Linked site pairs on the links inside pages’ main content', int(Number(summary.edges_editorial)))}
      ${measure('edges_all', 'All site links', 'Linked site pairs on every link, navigation, footers and share buttons included', int(Number(summary.edges_all)))}
      ${measure('spearman', 'Spearman', 'Rank correlation of the two PageRank rankings over all sites (1: the same order)', Number(summary.spearman).toFixed(3))}
      ${measure('kendall_tau', 'Kendall tau', 'Share of site pairs ordered alike, less those ordered apart, over all sites', Number(summary.kendall_tau).toFixed(3))}
      ${measure('top_k_overlap', `Top ${int(k)} shared`, `Sites of each graph’s top ${k} that are in the other’s: ${pct(Number(summary.top_k_overlap))}`,
        `${int(Math.round(k * Number(summary.top_k_overlap)))} of ${int(k)}`)}
    </dl>
    <div class="table-wrap">
      <table class="data compact links-top">
        <thead>
          <tr><th rowspan="2" class="num">Place</th><th colspan="3">Editorial links</th><th colspan="3">All links</th></tr>
          <tr>
            <th>Site</th><th class="num">PageRank</th><th class="num" title="Its place on all links">On all</th>
            <th>Site</th><th class="num">PageRank</th><th class="num" title="Its place on editorial links">On editorial</th>
          </tr>
        </thead>
        <tbody>
          ${top.map(
            (r) => html`<tr data-place=${r.place}>
              <td class="num">${r.place}</td>
              <td class="site" data-graph="editorial"><a href=${siteHref(r.editorial_site!)} title=${r.editorial_site!}>${r.editorial_site}</a></td>
              <td class="num">${sig(Number(r.editorial_pagerank))}</td>
              ${place(r.its_place_on_all_links!, k)}
              <td class="site" data-graph="all"><a href=${siteHref(r.all_links_site!)} title=${r.all_links_site!}>${r.all_links_site}</a></td>
              <td class="num">${sig(Number(r.all_links_pagerank))}</td>
              ${place(r.its_place_on_editorial_links!, k)}
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${top.length === 0 ? html`<p class="empty">The run listed no site.</p>` : nothing}
  </div>`;
}
