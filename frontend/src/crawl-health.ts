// How fetching went, as the pages show it: a site's crawl status (badge,
// tooltip, sentence), failed fetches counted by error class, and why a crawl
// ended, the URLs a crawl left out. Every helper shows nothing for a field an older server does not send.

import { html, nothing } from 'lit';
import type { CrawlStatus, EndReason, ErrorsByClass, SiteCrawlStatus } from './api';
import { int } from './format';
import './crawl-health.css';

interface StatusInfo {
  /** label is the badge's text and the filter's option. */
  label: string;
  /** meaning is the tooltip: what the status says about the site. */
  meaning: string;
  /** sentence explains it on the site page, with what to do. */
  sentence: string;
}

export const STATUS_INFO: Record<SiteCrawlStatus, StatusInfo> = {
  ok: {
    label: 'ok',
    meaning: 'At least one page was fetched fine',
    sentence: 'At least one page of this site was fetched fine.',
  },
  dead: {
    label: 'dead',
    meaning: 'Every fetch failed (name not found, connection refused, timeout…): the site may be gone',
    sentence:
      'Every fetch failed (name not found, connection refused, timeout…): the site may be gone or unreachable from here. Its importance comes from the links to it only.',
  },
  'robots-closed': {
    label: 'closed to robots',
    meaning: 'robots.txt disallowed every URL tried',
    sentence: 'Its robots.txt disallowed every URL the crawl tried, so no page was fetched. Its importance comes from the links to it only.',
  },
  'errors-only': {
    label: 'errors only',
    meaning: 'Every answer was an HTTP error (4xx or 5xx)',
    sentence: 'The site answered, but only with HTTP errors (4xx or 5xx): no page was fetched fine.',
  },
  slow: {
    label: 'slow',
    meaning: 'Asks for a Crawl-delay over the cap: not crawled',
    sentence:
      'Its robots.txt asks for a Crawl-delay longer than the crawl settings allow (max delay), so the crawl left it alone. Raise the max delay on the Crawl page to crawl it, slowly.',
  },
  'not-fetched': {
    label: 'not fetched',
    meaning: 'Known from links only: the crawl has not fetched it yet',
    sentence: 'Known from links only: the crawl has not fetched any page of it yet.',
  },
};

/** own reports whether key is a key of table itself (not of its prototype). */
function own(table: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(table, key);
}

/** isSiteCrawlStatus tells a known status from anything else (a URL parameter, a newer server's value). */
export function isSiteCrawlStatus(s: string | null | undefined): s is SiteCrawlStatus {
  return !!s && own(STATUS_INFO, s);
}

/** crawlStatusBadge is a site's crawl status, quiet when ok; nothing when the server sent none. */
export function crawlStatusBadge(s: SiteCrawlStatus | string | undefined) {
  if (!s) return nothing;
  const info = isSiteCrawlStatus(s) ? STATUS_INFO[s] : { label: s, meaning: s };
  return html`<span class="crawl-badge cs-${s}" data-crawl-status=${s} title=${info.meaning}>${info.label}</span>`;
}

/** ERROR_CLASS_ORDER lists the error classes from the network outwards, the order they are shown in. */
export const ERROR_CLASS_ORDER = ['dns', 'connect', 'timeout', 'tls', 'incomplete', 'http-4xx', 'http-5xx', 'redirect-chain', 'robots', 'slow', 'other'];

const ERROR_CLASS_MEANING: Record<string, string> = {
  dns: 'the host name did not resolve',
  connect: 'the connection was refused or failed',
  timeout: 'no answer in time',
  tls: 'the secure connection (TLS) failed',
  incomplete: 'the answer was cut off',
  'http-4xx': 'the server answered 4xx (not found, forbidden…)',
  'http-5xx': 'the server answered 5xx (server error)',
  robots: 'disallowed by robots.txt',
  slow: 'the site asks for a Crawl-delay over the cap (max delay): not fetched',
  redirect: 'no failure: the URL redirected to another, kept so that a continued crawl does not ask for it again',
  other: 'another failure',
};

/**
 * countEntries are the non-zero counts of by, in the order of order, then any
 * other key by name (a newer server's kind is shown, not dropped).
 */
function countEntries(by: Record<string, number> | null | undefined, order: string[]): [string, number][] {
  const all = Object.entries(by ?? {}).filter(([, n]) => typeof n === 'number' && n > 0);
  const rank = (c: string) => {
    const i = order.indexOf(c);
    return i < 0 ? order.length : i;
  };
  return all.sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

/** errorEntries are the non-zero counts of by, in the order of ERROR_CLASS_ORDER, then any other class by name. */
export function errorEntries(by: ErrorsByClass | null | undefined): [string, number][] {
  return countEntries(by, ERROR_CLASS_ORDER);
}

/** errorClassLabel is an error class with its meaning as a tooltip. */
export function errorClassLabel(c: string) {
  return html`<span class="err-class" data-error-class=${c} title=${ERROR_CLASS_MEANING[c] ?? c}>${c}</span>`;
}

/** joined puts " · " between the parts. */
function joined(parts: unknown[]) {
  return parts.map((p, i) => html`${i ? html`<span class="sep" aria-hidden="true"> · </span>` : nothing}${p}`);
}

/** errorsByClass renders "dns 2 · timeout 1 · http-4xx 5", or nothing when there is no count. */
export function errorsByClass(by: ErrorsByClass | null | undefined) {
  const entries = errorEntries(by);
  if (entries.length === 0) return nothing;
  return html`<span class="errors-by-class">${joined(
    entries.map(([c, n]) => html`<span class="err-count" data-error-class=${c} title=${ERROR_CLASS_MEANING[c] ?? c}
      >${c} <strong>${int(n)}</strong></span>`),
  )}</span>`;
}

/** DROP_KINDS are the kinds of URL a crawl leaves out, in the order shown, with what each one is. */
const DROP_KINDS: Record<string, { label: string; meaning: string }> = {
  'out-of-scope': {
    label: 'out of scope',
    meaning: "Links outside the crawl's scope (and beyond its max hops): they count in the site graph, but were not fetched",
  },
  'too-deep': { label: 'too deep', meaning: 'More links away from a seed than the max depth' },
  'path-depth': { label: 'path depth', meaning: 'Trap guard: a path of over 16 segments, as endless generated paths have' },
  'repeated-segments': {
    label: 'repeated segments',
    meaning: 'Trap guard: a path that repeats itself (/a/b/a/b/a/b), as broken relative links make',
  },
  'query-variants': {
    label: 'query variants',
    meaning: 'Trap guard: over 100 query strings of one path (sort orders, filters, session ids)',
  },
  calendar: {
    label: 'calendar',
    meaning: 'Trap guard: a date more than a century back or more than a year ahead, or over 200 dated URLs on one site (an endless calendar)',
  },
};

/** droppedEntries are the non-zero counts of URLs left out, by kind; none from an older server. */
export function droppedEntries(by: Record<string, number> | null | undefined): [string, number][] {
  return countEntries(by, Object.keys(DROP_KINDS));
}

/** leftOut renders "out of scope 120 · calendar 3", each kind with what it is as a tooltip, or nothing. */
export function leftOut(by: Record<string, number> | null | undefined) {
  const entries = droppedEntries(by);
  if (entries.length === 0) return nothing;
  return html`<span class="errors-by-class">${joined(
    entries.map(([k, n]) => {
      const kind = own(DROP_KINDS, k) ? DROP_KINDS[k] : { label: k, meaning: k };
      return html`<span class="err-count" data-dropped=${k} title=${kind.meaning}>${kind.label} <strong>${int(n)}</strong></span>`;
    }),
  )}</span>`;
}

const END_REASONS: Record<Exclude<EndReason, ''>, { text: string; tone: 'ok' | 'warn' | 'bad' }> = {
  limit: { text: 'the page cap was reached', tone: 'ok' },
  'failure-limit': { text: 'the failure cap was reached — most URLs failed (see errors by class)', tone: 'warn' },
  exhausted: { text: 'nothing was left to fetch', tone: 'ok' },
  stopped: { text: 'stopped by you', tone: 'warn' },
  'seeds-failed': { text: 'no seed could be fetched — check the URLs and your network', tone: 'bad' },
  failed: { text: 'sitesift itself failed (see the last error) — the pages fetched so far are kept', tone: 'bad' },
};

/** fetchedFailed says what a crawl got, "23 pages fetched, 377 failed": the page cap counts the first, the failure cap the second. */
export function fetchedFailed(s: Pick<CrawlStatus, 'pages' | 'pages_ok' | 'errors'>): string {
  return `${int(s.pages_ok ?? s.pages)} pages fetched, ${int(s.errors)} failed`;
}

/** endReasonLine says why a crawl ended, or nothing while it runs (or from an older server). */
export function endReasonLine(reason: EndReason | string | undefined) {
  if (!reason) return nothing;
  const r = own(END_REASONS, reason) ? END_REASONS[reason as Exclude<EndReason, ''>] : { text: reason, tone: 'warn' };
  return html`<p class="end-reason tone-${r.tone}" id="crawl-end-reason" data-end-reason=${reason}><strong>Ended:</strong> ${r.text}</p>`;
}
