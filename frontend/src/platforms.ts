// Platform sites (social networks, video platforms, URL shorteners, CDNs,
// ad and tracking hosts) are ranked with every site but kept apart in what a
// librarian reads: this module holds what the pages say of them.

import { html, nothing } from 'lit';
import { int } from './format';

/** PLATFORM_NOTE is the one sentence the UI says of platforms. */
export const PLATFORM_NOTE =
  'Archive-It and Browsertrix users archive platforms (social networks, video sites, URL shorteners) through dedicated social media capture tools, not from a seed list.';

/** SitesPlatforms is the Sites page's platform view: hidden (the default), shown among the others, or alone. */
export type SitesPlatforms = '' | 'show' | 'only';

/** isSitesPlatforms tells a value of the Sites page's platforms parameter. */
export function isSitesPlatforms(s: string | null): s is SitesPlatforms {
  return s === '' || s === 'show' || s === 'only';
}

/** platformsQuery is the API's platforms parameter of a Sites page view. */
export function platformsQuery(v: SitesPlatforms): 'none' | 'only' | '' {
  return v === '' ? 'none' : v === 'only' ? 'only' : '';
}

/** platformBadge marks a platform site in a table. */
export function platformBadge(platform: boolean | undefined) {
  return platform ? html` <span class="badge platform-badge" title=${PLATFORM_NOTE}>platform</span>` : nothing;
}

/**
 * platformControls are the Sites page's "show platforms" checkbox and its
 * "Platforms" filter, with the project's count of platform sites.
 */
export function platformControls(v: SitesPlatforms, count: number | undefined, change: (v: SitesPlatforms) => void) {
  if (count === undefined) return nothing; // an older server
  return html`<span class="platform-controls">
    <label class="platform-show" title=${PLATFORM_NOTE}>
      <input id="site-show-platforms" type="checkbox" .checked=${v !== ''} ?disabled=${v === 'only'}
        @change=${(ev: Event) => change((ev.target as HTMLInputElement).checked ? 'show' : '')} />
      show platforms${v === '' && count > 0 ? html` <span class="muted">(${int(count)} hidden)</span>` : nothing}
    </label>
    <button type="button" class="btn ${v === 'only' ? 'active' : ''}" id="site-platforms-filter" aria-pressed=${v === 'only' ? 'true' : 'false'}
      title="Show the platform sites alone" @click=${() => change(v === 'only' ? '' : 'only')}>Platforms (${int(count)})</button>
  </span>`;
}
