// A small inline SVG chart of a site's importance over the crawl: no chart
// library, one polyline over an area, the first and last values marked.

import { html, nothing, svg } from 'lit';
import type { OPICPoint } from './api';
import { int, sig } from './format';
import './sparkline.css';

/**
 * sparkline draws points (crawled pages → OPIC share) on [0, max] so that
 * the height compares with zero, not with the smallest value: a site whose
 * share barely moved draws a flat line, not a cliff.
 */
export function sparkline(points: OPICPoint[] | null | undefined, width = 220, height = 44) {
  const pts = (points ?? []).filter((p) => Number.isFinite(p.opic) && Number.isFinite(p.pages));
  if (pts.length === 0) {
    return html`<span class="sparkline-empty muted small">No history (the graph was imported, or no crawl snapshot yet).</span>`;
  }
  const pad = 3;
  const x0 = pts[0]!.pages;
  const x1 = pts[pts.length - 1]!.pages;
  const max = Math.max(...pts.map((p) => p.opic)) || 1;
  const x = (p: OPICPoint) => (x1 > x0 ? pad + ((p.pages - x0) / (x1 - x0)) * (width - 2 * pad) : width / 2);
  const y = (p: OPICPoint) => height - pad - (p.opic / (max * 1.05)) * (height - 2 * pad);
  const line = pts.map((p) => `${x(p).toFixed(1)},${y(p).toFixed(1)}`).join(' ');
  const first = pts[0]!;
  const last = pts[pts.length - 1]!;
  const area = pts.length > 1 ? `${x(first).toFixed(1)},${height - pad} ${line} ${x(last).toFixed(1)},${height - pad}` : '';
  const label = `OPIC share over the crawl: ${sig(first.opic)} at ${int(first.pages)} pages → ${sig(last.opic)} at ${int(last.pages)} pages (${pts.length} snapshots)`;
  return html`<svg class="sparkline" width=${width} height=${height} viewBox="0 0 ${width} ${height}" role="img" aria-label=${label}
      data-points=${pts.length}>
      <title>${label}</title>
      <line class="base" x1=${pad} x2=${width - pad} y1=${height - pad} y2=${height - pad}></line>
      ${area ? svg`<polygon class="area" points=${area}></polygon>` : nothing}
      ${pts.length > 1 ? svg`<polyline class="line" points=${line}></polyline>` : nothing}
      <circle class="dot first" cx=${x(first)} cy=${y(first)} r="2.5"></circle>
      <circle class="dot last" cx=${x(last)} cy=${y(last)} r="3"></circle>
    </svg>`;
}
