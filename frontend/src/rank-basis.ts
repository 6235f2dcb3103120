// ss-rank-basis: what the ranking of the project's sites rests on, and,
// when the crawl is too small to separate them, what would help.

import { html, nothing } from 'lit';
import { api, type RankBasis } from './api';
import { LightElement } from './base';
import { Loader } from './loader';
import { projectData } from './project-events';
import { crawlFeed } from './state';
import './rank-basis.css';

/** REFRESH_MS is how often the basis is read again while a crawl runs. */
const REFRESH_MS = 5000;

export class RankBasisNote extends LightElement {
  static override properties = {
    compact: { type: Boolean },
  };

  /** compact shows nothing when the ranking is not thin (the review card). */
  declare compact: boolean;

  #basis = new Loader<RankBasis>(this);
  #last = 0;

  constructor() {
    super();
    this.compact = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    projectData.addEventListener('change', this.#load);
    crawlFeed.addEventListener('status', this.#onCrawl);
    this.#load();
  }

  override disconnectedCallback(): void {
    projectData.removeEventListener('change', this.#load);
    crawlFeed.removeEventListener('status', this.#onCrawl);
    super.disconnectedCallback();
  }

  #load = () => {
    this.#last = Date.now();
    void this.#basis.run((signal) => api.rankBasis(signal), { silent: true });
  };

  #onCrawl = () => {
    if (Date.now() - this.#last >= REFRESH_MS && !this.#basis.busy) this.#load();
  };

  override render() {
    const b = this.#basis.value;
    if (!b || b.sites === 0) return nothing;
    if (!b.thin) {
      if (this.compact) return nothing;
      return html`<p class="muted small rank-basis" data-rank-basis="ok">${b.summary}
        ${b.fixpoint.rounds > 0
          ? html`Importance is OPIC carried on to its fixpoint over the links known: ${b.fixpoint.rounds} rounds, the last two
              differing by ${b.fixpoint.residual.toExponential(1)}.`
          : nothing}</p>`;
    }
    return html`<div class="rank-basis thin" role="note" data-rank-basis="thin">
      <strong>This crawl is too small to separate the sites.</strong> ${b.summary}
      ${this.compact
        ? html`<span class="muted">Treat close ranks as equal.</span>`
        : html`<ul>${(b.advice ?? []).map((a) => html`<li>${a}</li>`)}</ul>`}
    </div>`;
  }
}

customElements.define('ss-rank-basis', RankBasisNote);

declare global {
  interface HTMLElementTagNameMap {
    'ss-rank-basis': RankBasisNote;
  }
}
