// Hash routing: #/crawl, #/sites, #/sites/{site}, #/review, #/search?q=,
// #/communities, #/selection, #/agreement, #/export, #/lab, #/import,
// #/projects, #/accounts (a team server's admins).
// The hash keeps the whole view state (sort, filter, page, query), so a
// reload or a bookmark shows the same thing, in the browser and in the
// desktop window alike.

export type View =
  | 'crawl'
  | 'sites'
  | 'site'
  | 'review'
  | 'search'
  | 'communities'
  | 'selection'
  | 'agreement'
  | 'export'
  | 'lab'
  | 'import'
  | 'projects'
  | 'history'
  | 'accounts';

export interface Route {
  view: View;
  /** site is set for the site detail view. */
  site: string;
  params: URLSearchParams;
}

/** ROUTE_EVENT is dispatched on window when navigate() replaces the hash without a hashchange. */
export const ROUTE_EVENT = 'ss-route';

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const qi = raw.indexOf('?');
  const path = qi >= 0 ? raw.slice(0, qi) : raw;
  const params = new URLSearchParams(qi >= 0 ? raw.slice(qi + 1) : '');
  const parts = path.split('/').filter(Boolean);
  switch (parts[0]) {
    case 'crawl':
      return { view: 'crawl', site: '', params };
    case 'search':
      return { view: 'search', site: '', params };
    case 'export':
      return { view: 'export', site: '', params };
    case 'communities':
      return { view: 'communities', site: '', params };
    case 'lab':
      return { view: 'lab', site: '', params };
    case 'import':
      return { view: 'import', site: '', params };
    case 'projects':
      return { view: 'projects', site: '', params };
    case 'review':
      return { view: 'review', site: '', params };
    case 'selection':
      return { view: 'selection', site: '', params };
    case 'agreement':
      return { view: 'agreement', site: '', params };
    case 'history':
      return { view: 'history', site: '', params };
    case 'accounts':
      return { view: 'accounts', site: '', params };
    case 'sites':
      if (parts.length > 1) {
        let site = parts.slice(1).join('/');
        try {
          site = decodeURIComponent(site);
        } catch {
          /* keep it as written */
        }
        return { view: 'site', site, params };
      }
      return { view: 'sites', site: '', params };
    default:
      return { view: 'sites', site: '', params };
  }
}

type ParamValue = string | number | undefined | null;

/** href builds "#/path?k=v" from a path and the non-empty params. */
export function href(path: string, params: Record<string, ParamValue> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    q.set(k, String(v));
  }
  const s = q.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

/** siteHref links to a site's detail view. */
export function siteHref(site: string): string {
  return `#/sites/${encodeURIComponent(site)}`;
}

/**
 * navigate goes to a hash. With replace it rewrites the current history entry
 * (for filter and sort changes, which should not fill the back button).
 */
export function navigate(hash: string, replace = false): void {
  if (hash === location.hash) return;
  if (replace) {
    history.replaceState(history.state, '', hash);
    window.dispatchEvent(new Event(ROUTE_EVENT));
  } else {
    location.hash = hash;
  }
}
