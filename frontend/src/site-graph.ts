// ss-site-graph: a picture of the site graph, node size by OPIC and colour
// by community core. It draws with Cytoscape.js (canvas, its built-in cose
// force layout), imported only when the graph is first shown, so the other
// pages do not load it.

import { html, nothing } from 'lit';
import type { Core as CyCore, ElementDefinition, EventObject, NodeSingular } from 'cytoscape';
import { message, type SiteGraph } from './api';
import { LightElement } from './base';
import { int, sig } from './format';
import { navigate, siteHref } from './router';
import './site-graph.css';

/**
 * CORE_COLOURS tell up to twelve cores apart (a qualitative palette that
 * stays distinct for the common colour-vision deficiencies as far as twelve
 * colours can); core k takes colour k mod 12.
 */
export const CORE_COLOURS = [
  '#2f5fd0', '#e07b00', '#1d9a6c', '#c0392b', '#8e44ad', '#b8860b',
  '#0e8fb0', '#d35d9a', '#5d7f1f', '#7a5230', '#4b4fd6', '#d94f2b',
];
/** NO_CORE is the colour of sites in no core. */
export const NO_CORE = '#b8bec7';

export function coreColour(core: number): string {
  return core < 0 ? NO_CORE : CORE_COLOURS[core % CORE_COLOURS.length]!;
}

/** coreName names core k (the API counts from 0) for people: "core 1" is the first core found. */
export function coreName(core: number): string {
  return core < 0 ? 'in no core' : `core ${core + 1}`;
}

type Cytoscape = typeof import('cytoscape');
let loading: Promise<Cytoscape> | null = null;

/** loadCytoscape imports the library once; a failed import may be retried. */
function loadCytoscape(): Promise<Cytoscape> {
  loading ??= import('cytoscape').then(
    (m) => (m as unknown as { default: Cytoscape }).default ?? m,
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

interface Hover {
  site: string;
  opic: number;
  pagerank: number;
  core: number;
  x: number;
  y: number;
  /** left puts the tip on the node's left, near the right edge of the picture. */
  left: boolean;
}

export class SiteGraphView extends LightElement {
  static override properties = {
    graph: { attribute: false },
    /** labelled are the sites always named in the picture (the seeds' sites). */
    labelled: { attribute: false },
    highlight: { type: Number },
    drawing: { state: true },
    error: { state: true },
    hover: { state: true },
  };

  declare graph: SiteGraph | null;
  declare labelled: string[];
  /** highlight is a core index to bring forward, -2 for none. */
  declare highlight: number;
  declare drawing: boolean;
  declare error: string;
  declare hover: Hover | null;

  #cy: CyCore | null = null;
  #drawn: SiteGraph | null = null;
  #seq = 0;

  constructor() {
    super();
    this.graph = null;
    this.labelled = [];
    this.highlight = -2;
    this.drawing = false;
    this.error = '';
    this.hover = null;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#seq++; // a draw still loading must not attach to a removed element
    this.#cy?.destroy();
    this.#cy = null;
    this.#drawn = null;
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if ((changed.has('graph') || changed.has('labelled')) && this.graph !== this.#drawn) void this.#draw();
    if (changed.has('highlight')) this.#applyHighlight();
  }

  async #draw(): Promise<void> {
    const seq = ++this.#seq;
    const g = this.graph;
    this.#cy?.destroy();
    this.#cy = null;
    this.#drawn = g;
    this.hover = null;
    if (!g || !g.nodes?.length) return;
    this.drawing = true;
    this.error = '';
    let cytoscape: Cytoscape;
    try {
      cytoscape = await loadCytoscape();
    } catch (err) {
      if (seq === this.#seq) {
        this.error = `The graph library could not be loaded: ${message(err)}`;
        this.drawing = false;
      }
      return;
    }
    await this.updateComplete;
    const box = this.querySelector<HTMLElement>('.graph-canvas');
    if (seq !== this.#seq || !box) return;
    try {
      this.#cy = this.#build(cytoscape, box, g);
      box.dataset.nodes = String(this.#cy.nodes().length);
      box.dataset.links = String(this.#cy.edges().length);
    } catch (err) {
      this.error = `The graph could not be drawn: ${message(err)}`;
    } finally {
      this.drawing = false;
    }
  }

  #build(cytoscape: Cytoscape, box: HTMLElement, g: SiteGraph): CyCore {
    const nodes = g.nodes ?? [];
    const ids = new Set(nodes.map((n) => n.site));
    const maxOpic = Math.max(...nodes.map((n) => n.opic), 0) || 1;
    const named = new Set(this.labelled);
    const els: ElementDefinition[] = nodes.map((n) => ({
      group: 'nodes',
      data: {
        id: n.site,
        label: n.site,
        opic: n.opic,
        pagerank: n.pagerank,
        core: n.core,
        colour: coreColour(n.core),
        // Area, not diameter, in proportion to OPIC, between 8 and 46 px.
        size: 8 + 38 * Math.sqrt(Math.max(0, n.opic) / maxOpic),
      },
      classes: named.has(n.site) ? 'named' : '',
    }));
    const maxW = Math.max(...(g.links ?? []).map((l) => l.weight), 1);
    for (const l of g.links ?? []) {
      if (l.source === l.target || !ids.has(l.source) || !ids.has(l.target)) continue;
      els.push({
        group: 'edges',
        data: {
          id: `${l.source}\u0000${l.target}`,
          source: l.source,
          target: l.target,
          width: 0.6 + 2.4 * (Math.log1p(l.weight) / Math.log1p(maxW)),
        },
      });
    }
    const cy = cytoscape({
      container: box,
      elements: els,
      minZoom: 0.2,
      maxZoom: 4,
      wheelSensitivity: 0.3,
      boxSelectionEnabled: false,
      autoungrabify: false,
      style: [
        {
          selector: 'node',
          style: {
            'background-color': 'data(colour)',
            width: 'data(size)',
            height: 'data(size)',
            'border-width': 1,
            'border-color': '#ffffff',
            label: '',
            'font-size': 11,
            'font-family': 'system-ui, sans-serif',
            color: '#1c2026',
            'text-valign': 'bottom',
            'text-margin-y': 3,
            'text-background-color': '#ffffff',
            'text-background-opacity': 0.8,
            'text-background-padding': '1px',
            'min-zoomed-font-size': 6,
          },
        },
        { selector: 'node.named', style: { label: 'data(label)', 'font-weight': 600, 'z-index': 5 } },
        { selector: 'node.hover', style: { label: 'data(label)', 'border-width': 2, 'border-color': '#1c2026', 'z-index': 10 } },
        {
          selector: 'edge',
          style: {
            width: 'data(width)',
            'line-color': '#9aa3ae',
            opacity: 0.35,
            'curve-style': 'straight',
            'target-arrow-shape': 'triangle',
            'target-arrow-color': '#9aa3ae',
            'arrow-scale': 0.6,
          },
        },
        { selector: 'edge.near', style: { opacity: 0.85, 'line-color': '#4b5563', 'target-arrow-color': '#4b5563' } },
        { selector: '.faded', style: { opacity: 0.12 } },
        { selector: 'edge.faded', style: { opacity: 0.04 } },
      ],
      layout: {
        name: 'cose',
        animate: false,
        randomize: true,
        // Room for labels; more repulsion spreads the hub-and-spoke clusters a crawl makes.
        nodeRepulsion: () => 9000,
        idealEdgeLength: () => 60,
        nodeOverlap: 8,
        componentSpacing: 60,
        padding: 24,
        numIter: 1000,
      },
    });
    cy.on('mouseover', 'node', (ev: EventObject) => this.#onHover(ev.target as NodeSingular));
    cy.on('mouseout', 'node', (ev: EventObject) => {
      const n = ev.target as NodeSingular;
      n.removeClass('hover');
      n.connectedEdges().removeClass('near');
      box.style.cursor = '';
      this.hover = null;
    });
    cy.on('tap', 'node', (ev: EventObject) => navigate(siteHref((ev.target as NodeSingular).id())));
    this.#applyHighlight(cy);
    return cy;
  }

  #onHover(n: NodeSingular): void {
    n.addClass('hover');
    n.connectedEdges().addClass('near');
    const p = n.renderedPosition();
    const box = this.querySelector<HTMLElement>('.graph-canvas');
    if (box) box.style.cursor = 'pointer';
    const left = box !== null && p.x > box.clientWidth - 260;
    this.hover = { site: n.id(), opic: n.data('opic'), pagerank: n.data('pagerank'), core: n.data('core'), x: p.x, y: p.y, left };
  }

  #applyHighlight(cy: CyCore | null = this.#cy): void {
    if (!cy) return;
    cy.batch(() => {
      cy.elements().removeClass('faded');
      if (this.highlight < -1) return;
      const out = cy.nodes().filter((n) => n.data('core') !== this.highlight);
      out.addClass('faded');
      out.connectedEdges().addClass('faded');
    });
  }

  /** fit zooms the picture back to the whole graph. */
  fit(): void {
    this.#cy?.fit(undefined, 24);
  }

  override render() {
    const h = this.hover;
    return html`<div class="graph-wrap">
      <div class="graph-canvas" role="img" aria-label="Site graph coloured by community core"></div>
      ${h
        ? html`<div class="graph-tip ${h.left ? 'left' : ''}" style="left:${h.x}px;top:${h.y}px">
            <strong>${h.site}</strong>
            <span>OPIC ${sig(h.opic)} · PageRank ${sig(h.pagerank)}</span>
            <span>${coreName(h.core)} · click to open</span>
          </div>`
        : nothing}
      ${this.drawing ? html`<div class="graph-busy"><span class="spinner"></span> Laying out ${int(this.graph?.nodes?.length ?? 0)} sites…</div>` : nothing}
      ${this.error ? html`<div class="alert graph-error" role="alert">${this.error}</div>` : nothing}
    </div>`;
  }
}

customElements.define('ss-site-graph', SiteGraphView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-site-graph': SiteGraphView;
  }
}
