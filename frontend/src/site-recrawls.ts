// The site page's importance over the crawls: one point per crawl (the
// first crawl, then each recrawl) under the project's window policy, and
// what each recrawl found of the site's pages. Kept apart from the rest of
// the site page.

import { html, nothing } from 'lit';
import { api, type OPICPoint, type SiteRecrawls, type SiteRound } from './api';
import { LightElement } from './base';
import { date, int, sig } from './format';
import { alertBox, Loader } from './loader';
import { sparkline } from './sparkline';
import './site-recrawls.css';

export class SiteRecrawlsPanel extends LightElement {
  static override properties = { site: { type: String } };

  site = '';
  #data = new Loader<SiteRecrawls>(this);

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('site') && this.site) {
      const site = this.site;
      void this.#data.run((signal) => api.siteRecrawls(site, signal));
    }
  }

  override render() {
    const d = this.#data.value;
    const rounds: SiteRound[] = d?.rounds ?? [];
    const gone = d?.gone ?? [];
    if (this.#data.error) return alertBox(this.#data.error);
    if (!d || rounds.length === 0) return nothing; // never recrawled: the crawl's own chart says it all
    // The chart's x axis is the crawl number here, not the pages crawled.
    const points: OPICPoint[] = rounds.map((r) => ({ pages: r.round, at: r.started_at, opic: r.importance }));
    return html`<section class="panel site-recrawls" id="site-recrawls">
      <h2>Importance over the crawls <span class="muted small">(window: ${d.window}, ${int(d.window_size)} crawl${d.window_size === 1 ? '' : 's'})</span></h2>
      ${sparkline(points, 260, 44)}
      <table class="table compact">
        <thead><tr><th>Crawl</th><th>Date</th><th class="num">Reading</th><th class="num">Importance</th>
          <th class="num">Unchanged</th><th class="num">Changed</th><th class="num">New</th><th class="num">Gone</th><th class="num">Failed</th></tr></thead>
        <tbody>
          ${rounds.map((r) => html`<tr data-round=${r.round} class=${r.changed + r.new + r.gone > 0 ? 'changed' : ''}>
            <td>${r.round === 0 ? 'first crawl' : `recrawl ${r.round}`}</td>
            <td>${date(r.started_at)}</td>
            <td class="num">${sig(r.reading)}</td>
            <td class="num">${sig(r.importance)}</td>
            <td class="num">${r.round === 0 ? '' : int(r.unchanged)}</td>
            <td class="num">${r.round === 0 ? '' : int(r.changed)}</td>
            <td class="num">${r.round === 0 ? '' : int(r.new)}</td>
            <td class="num">${r.round === 0 ? '' : int(r.gone)}</td>
            <td class="num">${r.round === 0 ? '' : int(r.failed)}</td>
          </tr>`)}
        </tbody>
      </table>
      ${gone.length
        ? html`<h3>Gone <span class="count">${int(gone.length)}</span></h3>
            <ul class="gone-pages">
              ${gone.map((g) => html`<li data-url=${g.url}><span class="badge gone">gone</span>
                <a href=${g.url} target="_blank" rel="noopener noreferrer">${g.title || g.url}</a>
                <span class="muted small">${g.why} · ${date(g.gone_at)}</span></li>`)}
            </ul>`
        : nothing}
    </section>`;
  }
}

customElements.define('ss-site-recrawls', SiteRecrawlsPanel);
