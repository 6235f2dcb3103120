// ss-crawl-platforms: the Crawl page's line on the platform sites the
// crawls met (social networks, video sites, shorteners, CDNs, ad hosts),
// which the rankings, the review queue and the exports leave out.

import { html, nothing } from 'lit';
import { api, type PlatformSummary } from './api';
import { LightElement } from './base';
import { int } from './format';
import { Loader } from './loader';
import { PLATFORM_NOTE } from './platforms';
import { href, siteHref } from './router';
import { ACTIVE_STATES, crawlFeed } from './state';

/** REFRESH_MS spaces the counts read while a crawl runs. */
const REFRESH_MS = 5000;

export class CrawlPlatforms extends LightElement {
  #data = new Loader<PlatformSummary>(this);
  #last = 0;
  #wasActive = false;

  override connectedCallback(): void {
    super.connectedCallback();
    crawlFeed.addEventListener('status', this.#onCrawl);
    void this.#load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    crawlFeed.removeEventListener('status', this.#onCrawl);
  }

  #load(): Promise<unknown> {
    this.#last = Date.now();
    return this.#data.run((signal) => api.platforms(signal), { silent: true });
  }

  /** onCrawl reads the count again every few seconds while a crawl runs, and when it ends. */
  #onCrawl = () => {
    const s = crawlFeed.status;
    const active = s !== null && ACTIVE_STATES.has(s.state);
    const ended = this.#wasActive && !active;
    this.#wasActive = active;
    if (ended || (active && Date.now() - this.#last >= REFRESH_MS)) void this.#load();
  };

  override render() {
    const d = this.#data.value;
    if (!d || d.count === 0) return nothing;
    const first = (d.sites ?? []).slice(0, 5);
    return html`<p class="errors-line" id="crawl-platforms" data-count=${d.count}>
      <strong>Platforms:</strong> the crawl met <a href=${href('/sites', { platforms: 'only' })}>${int(d.count)} platform
      site${d.count === 1 ? '' : 's'}</a>${first.length
        ? html` (${first.map((s, i) => html`${i ? ', ' : ''}<a href=${siteHref(s)}>${s}</a>`)}${d.count > first.length ? ', …' : ''})`
        : nothing},
      ranked with every site but left out of the Sites list, the review queue and the exports unless you ask.
      <span class="muted">${PLATFORM_NOTE}</span>
    </p>`;
  }
}

customElements.define('ss-crawl-platforms', CrawlPlatforms);

declare global {
  interface HTMLElementTagNameMap {
    'ss-crawl-platforms': CrawlPlatforms;
  }
}
