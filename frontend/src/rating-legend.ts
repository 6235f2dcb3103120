// ss-rating-legend: what the ratings 1–4 mean, written once for every page that shows or takes a rating.

import { html } from 'lit';
import { LightElement } from './base';
import './rating-legend.css';

/** RATING_MEANINGS are the meanings of the ratings 1–4: 1 least, 4 most worth archiving. */
export const RATING_MEANINGS: Record<1 | 2 | 3 | 4, string> = {
  1: 'least worth archiving',
  2: 'less worth archiving',
  3: 'more worth archiving',
  4: 'most worth archiving',
};

/** ratingMeaning is the meaning of a rating, for titles; '' for none. */
export function ratingMeaning(n: number | null | undefined): string {
  return n && n >= 1 && n <= 4 ? `${n}: ${RATING_MEANINGS[n as 1 | 2 | 3 | 4]}` : '';
}

/** ss-rating-legend shows the four ratings with their meanings, in the colours the ratings have everywhere. */
export class RatingLegend extends LightElement {
  override render() {
    return html`<p class="rating-legend" aria-label="Rating scale">
      <span class="legend-title">Ratings:</span>
      ${([1, 2, 3, 4] as const).map(
        (n) => html`<span class="legend-item" data-rating=${n}><span class="rating r${n}">${n}</span> ${RATING_MEANINGS[n]}</span>`,
      )}
    </p>`;
  }
}

customElements.define('ss-rating-legend', RatingLegend);

declare global {
  interface HTMLElementTagNameMap {
    'ss-rating-legend': RatingLegend;
  }
}
