// ss-explainer: the plain sentence at the top of a page saying what its numbers mean, and the texts of
// those sentences, written once. The raw shares behind the scores are behind a toggle (RawToggle), kept
// across reloads.

import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { Standing } from './api';
import { LightElement } from './base';
import { rank, score, share, tiedTitle } from './format';
import './explainer.css';

/** The sentences, one per kind of number; a page shows the ones it uses. */
export const EXPLAIN = {
  importance:
    'Importance: how much of the web’s links lead to a site (OPIC, carried on to its fixpoint over the links the crawl found), as a score where the top site = 100 (score = 100 × value / top value, rounded); rank 1 is the most linked, and sites of equal value share a rank.',
  pagerank: 'PageRank checks it on the same links, by another computation of the same limit, on the same 0–100 scale and ranks.',
  hub: 'Hub score: how well a community’s seed links to the sites of its community (HITS), as a score where the highest of this run = 100.',
  search:
    'Results are pages ordered by relevance: how well a page matches your words (more for a match in the title). Every word must be on the page unless you choose “any word”.',
  agreement:
    'Agreement compares each librarian and each measure with the mean rating of all librarians; a measure’s thresholds are shown as 0–100 scores of its top site (the raw values on demand).',
} as const;

/**
 * ss-explainer shows one sentence (its text property) above a page's numbers, with the toggle for the raw
 * shares when raw is set.
 */
export class Explainer extends LightElement {
  static override properties = {
    text: { type: String },
    raw: { type: Boolean },
  };

  declare text: string;
  /** raw adds the "show raw shares" toggle. */
  declare raw: boolean;

  constructor() {
    super();
    this.text = '';
    this.raw = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    rawShares.addEventListener('change', this.#changed);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    rawShares.removeEventListener('change', this.#changed);
  }

  #changed = () => this.requestUpdate();

  override render() {
    return html`<p class="explainer">
      <span class="explainer-text">${this.text}</span>
      ${this.raw
        ? html`<label class="raw-toggle" title="Show the values the ranks and scores come from: each site's share of 1 (all sites sum to 1)">
            <input type="checkbox" class="raw-shares" .checked=${rawShares.on}
              @change=${(ev: Event) => rawShares.set((ev.target as HTMLInputElement).checked)} />
            <span>Show raw shares</span>
          </label>`
        : nothing}
    </p>`;
  }
}

customElements.define('ss-explainer', Explainer);

const RAW_KEY = 'sitesift.rawShares';

/** RawShares is whether the raw shares are shown, one switch for every page, kept in localStorage. */
class RawShares extends EventTarget {
  on: boolean;

  constructor() {
    super();
    let v = false;
    try {
      v = localStorage.getItem(RAW_KEY) === '1';
    } catch {
      /* no storage: off */
    }
    this.on = v;
  }

  set(on: boolean): void {
    this.on = on;
    try {
      localStorage.setItem(RAW_KEY, on ? '1' : '0');
    } catch {
      /* not fatal: the switch is not remembered */
    }
    this.dispatchEvent(new Event('change'));
  }
}

export const rawShares = new RawShares();

/** rawSharesOn says whether the raw shares are shown. */
export function rawSharesOn(): boolean {
  return rawShares.on;
}

declare global {
  interface HTMLElementTagNameMap {
    'ss-explainer': Explainer;
  }
}

/** RawController re-renders its host when the raw shares are shown or hidden. */
export class RawController implements ReactiveController {
  #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    rawShares.addEventListener('change', this.#changed);
  }

  hostDisconnected(): void {
    rawShares.removeEventListener('change', this.#changed);
  }

  #changed = () => this.#host.requestUpdate();
}

/**
 * standingStats are the stats of one site's importance and PageRank, as its page and review card show them:
 * the 0–100 score, the rank, and the raw share when shown.
 */
export function standingStats(s: Standing, opic: number, pagerank: number) {
  const stat = (key: string, label: string, sc: number | undefined, rk: number | undefined, ties: number | undefined, raw: number, title: string) =>
    html`<div class="stat standing" data-standing=${key} title=${title}>
      <span class="k">${label}</span>
      <span class="v"><span data-score>${score(sc)}</span> <span class="rank-of muted small" data-rank>${rank(rk)}</span>
        ${ties ? html`<span class="tied muted small" data-ties=${ties}>${tiedTitle(ties)}</span>` : nothing}
        ${rawShares.on ? html`<span class="raw-share" data-share>${share(raw)}</span>` : nothing}</span>
    </div>`;
  return html`${stat('opic', 'Importance', s.opic_score, s.opic_rank, s.opic_ties, opic, 'Importance (OPIC) as 0–100 of the top site; #rank among all sites but the platforms')}
    ${stat('pagerank', 'PageRank', s.pagerank_score, s.pagerank_rank, undefined, pagerank, 'PageRank as 0–100 of the top site; #rank among all sites but the platforms')}`;
}
