// Number and text formatting shared by the views.

const intFmt = new Intl.NumberFormat('en-US');

/** int formats a count with thousands separators. */
export function int(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : intFmt.format(n);
}

/** bytes formats a size in bytes as "812 B", "4.2 kB", "1.3 MB" or "2.05 GB" (powers of 1000). */
export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${units[i]}`;
}

/** sig formats an importance score with 4 significant digits ("0.08123"). */
export function sig(x: number | null | undefined): string {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  if (x === 0) return '0';
  return x.toPrecision(4);
}

/** pct formats a share in [0,1] as a percentage. */
export function pct(x: number): string {
  return `${(x * 100).toFixed(x >= 0.1 ? 1 : 2)}%`;
}

/** duration formats seconds as "1h 02m", "3m 05s" or "8.4s". */
export function duration(sec: number): string {
  if (!Number.isFinite(sec) || sec <= 0) return '0s';
  if (sec < 60) return `${sec.toFixed(1)}s`;
  const s = Math.floor(sec % 60);
  const m = Math.floor(sec / 60) % 60;
  const h = Math.floor(sec / 3600);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}h ${pad(m)}m` : `${m}m ${pad(s)}s`;
}

/** date formats an RFC 3339 timestamp in the user's locale, short. */
export function date(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * snippetHTML keeps only text and <mark> elements of a search snippet. The
 * API escapes everything but the marks already; parsing in an inert
 * <template> and rebuilding means a snippet can never carry other markup.
 */
export function snippetHTML(snippet: string): string {
  const t = document.createElement('template');
  t.innerHTML = snippet;
  let out = '';
  const walk = (n: Node, inMark: boolean) => {
    for (const c of Array.from(n.childNodes)) {
      if (c.nodeType === Node.TEXT_NODE) {
        out += escapeHTML(c.textContent ?? '');
      } else if (c.nodeType === Node.ELEMENT_NODE) {
        const mark = !inMark && (c as Element).tagName === 'MARK';
        if (mark) out += '<mark>';
        walk(c, inMark || mark);
        if (mark) out += '</mark>';
      }
    }
  };
  walk(t.content, false);
  return out;
}

export function escapeHTML(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The one rule of every 0–100 score, applied by the server (app/rank.go): score = 100 × value / the top
 * value, rounded; the top site scores 100. Ranks count from 1, the highest value first; equal values share
 * a rank (1, 2, 2, 4).
 */
export const SCORE_RULE = 'score = 100 × value / top value, rounded; rank 1 is the highest, and equal values share a rank';

/** rank formats a rank as "#3", or "–" when the server sent none. */
export function rank(n: number | null | undefined): string {
  return n ? `#${intFmt.format(n)}` : '–';
}

/** tiedRank formats a rank shared with other sites as "#2=", and tiedTitle says with how many. */
export function tiedRank(n: number | null | undefined, ties: number | null | undefined): string {
  return n && ties ? `${rank(n)}=` : rank(n);
}

/** tiedTitle says how many other sites share a rank, '' when none does. */
export function tiedTitle(ties: number | null | undefined): string {
  return ties ? `tied with ${intFmt.format(ties)} other site${ties === 1 ? '' : 's'} of the same importance` : '';
}

/** score formats a 0–100 score, or "–" when the server sent none. */
export function score(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : String(n);
}

/** share formats a raw share of 1 (OPIC, PageRank) with 4 significant digits, for the "raw shares" detail. */
export function share(x: number | null | undefined): string {
  return sig(x);
}

/**
 * relative is SCORE_RULE for a list the server sends as raw values only (the live crawl's top sites, whose
 * first is the top site): Math.round(100 × v / top), 0 when top is not positive. Everything else gets its
 * scores from the server.
 */
export function relative(v: number, top: number): number {
  return top > 0 ? Math.round((100 * v) / top) : 0;
}
