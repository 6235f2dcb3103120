// ss-export: every deliverable of the project on one page, each a one-click
// download under its one file name (PROJECT-what.format, from GET
// /api/exports) with a line saying what it is for: the approved selection,
// the top K sites by importance (with a preview of its first lines),
// community seed lists, the ratings file, the sites table, the crawler
// configurations (browsertrix-crawler's YAML, Heritrix's seeds and
// precedence files), the crawl as a WACZ file and the WARC archive. The same files come from `sitesift
// export --what`.

import { html, nothing } from 'lit';
import { api, type Deliverable, type ExportFormat } from './api';
import { collectionsApi, type CollectionSummary, type SeedFile } from './collections-api';
import { LightElement } from './base';
import { Downloads } from './download';
import { int } from './format';
import { alertBox, Loader, spinner } from './loader';
import { href } from './router';
import './warc-files';
import './wacz-export';
import './export-view.css';
import { PLATFORM_NOTE } from './platforms';

const PREVIEW_LINES = 25;
const FORMATS: { value: ExportFormat; label: string }[] = [
  { value: 'txt', label: 'Text — one URL a line' },
  { value: 'csv', label: 'CSV — URL, site, scores' },
  { value: 'json', label: 'JSON — array of objects' },
];

export class ExportView extends LightElement {
  static override properties = {
    params: { attribute: false },
    count: { state: true },
    format: { state: true },
    preview: { state: true },
    lineCount: { state: true },
    siteCount: { state: true },
    copied: { state: true },
    includeFailed: { state: true },
    includeRejected: { state: true },
    includePlatforms: { state: true },
    bom: { state: true },
  };

  declare params: URLSearchParams;
  declare count: number;
  declare format: ExportFormat;
  declare preview: string;
  declare lineCount: number;
  declare siteCount: number;
  declare copied: string;
  /** includeFailed keeps the sites whose crawl failed (dead, closed to robots, errors only) in the list. */
  declare includeFailed: boolean;
  /** includeRejected keeps the sites librarians rejected in the list. */
  declare includeRejected: boolean;
  /** includePlatforms keeps the platform sites (social networks, video sites, shorteners, CDNs, ad hosts) in the list. */
  declare includePlatforms: boolean;
  /**
   * bom says whether CSV files start with a UTF-8 byte-order mark (Excel on Windows needs one to read UTF-8);
   * undefined leaves each file its default (on for the ratings file and the sites table).
   */
  declare bom: boolean | undefined;

  /** file is the whole export file; the preview shows its first lines. */
  #file = new Loader<string>(this, '');
  /** list is the deliverables with this project's file names. */
  #list = new Loader<Deliverable[]>(this, []);
  /**
   * leftOut says, for the deliverables that leave sites out, how many and why ('' for none), and, for a deliverable
   * that holds nothing, why (empty).
   */
  #leftOut = new Loader<Record<string, { text: string; empty: string; differs: string }>>(this, {});
  /** collections are the saved collections, each exported by name as librarians edited it. */
  #collections = new Loader<CollectionSummary[]>(this, []);
  #timer: number | undefined;
  /** downloads saves the seed list in the desktop window, where the link alone saves nothing. */
  #downloads = new Downloads(this);

  constructor() {
    super();
    this.params = new URLSearchParams();
    this.count = 100;
    this.format = 'txt';
    this.preview = '';
    this.lineCount = 0;
    this.siteCount = 0;
    this.copied = '';
    this.includeFailed = false;
    this.includeRejected = false;
    this.includePlatforms = false;
    this.bom = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const c = Number(this.params.get('count'));
    if (Number.isInteger(c) && c > 0) this.count = c;
    const f = this.params.get('format');
    if (f === 'txt' || f === 'csv' || f === 'json') this.format = f;
    this.includeFailed = this.params.get('include_failed') === '1';
    this.includeRejected = this.params.get('include_rejected') === '1';
    this.includePlatforms = this.params.get('include_platforms') === '1';
    const bom = this.params.get('bom');
    this.bom = bom === '1' ? true : bom === '0' ? false : undefined;
    void this.#loadPreview();
    void this.#loadList();
    void this.#collections.run(async (signal) => (await collectionsApi.list(signal)) ?? []);
  }

  #loadList(): Promise<unknown> {
    void this.#loadLeftOut();
    return this.#list.run((signal) => api.exports(this.count, signal));
  }

  /** topParams are the parameters of the top-K list. */
  #topParams(): Record<string, string | number | undefined> {
    return {
      count: this.count,
      include_failed: this.includeFailed ? 'true' : undefined,
      include_rejected: this.includeRejected ? 'true' : undefined,
      include_platforms: this.includePlatforms ? 'true' : undefined,
    };
  }

  #loadLeftOut(): Promise<unknown> {
    return this.#leftOut.run(async (signal) => {
      const asked: [string, Record<string, string | number | undefined>][] = [
        ['approved', {}],
        ['top-k', this.#topParams()],
        ['heritrix-precedence', {}],
        ['heritrix-seeds', {}],
        ['browsertrix', {}],
        ['communities', {}],
        ['ratings', {}],
      ];
      // A deliverable that cannot be made yet (importance stale) just says nothing.
      const texts = await Promise.all(
        asked.map(([what, p]) =>
          api.exportLeftOut(what, p, signal).then(
            (l) => ({ text: l.text, empty: l.empty, differs: l.differs }),
            () => ({ text: '', empty: '', differs: '' }),
          ),
        ),
      );
      return Object.fromEntries(asked.map(([what], i) => [what, texts[i]]));
    });
  }

  /**
   * leftOutLine says how many sites the deliverable leaves out and why, or, when it holds nothing, that its file is
   * its header alone and why: one line in the same place.
   */
  #leftOutLine(what: string) {
    const l = this.#leftOut.value?.[what];
    // The current extraction is not what a librarian edited and saved: say so where it is exported.
    const differs = l?.differs
      ? html`<p class="small left-out export-differs" data-differs=${what}>${l.differs.charAt(0).toUpperCase()}${l.differs.slice(1)}.</p>`
      : nothing;
    if (l?.empty) {
      return html`${differs}<p class="small left-out empty-export" data-empty=${what}>
          <strong>Empty:</strong> ${l.empty}. The file holds its header alone.
        </p>`;
    }
    return html`${differs}${l?.text ? html`<p class="small muted left-out" data-left-out=${what}>The file ${l.text}.</p>` : nothing}`;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.clearTimeout(this.#timer);
  }

  async #loadPreview(): Promise<void> {
    const got = await this.#file.run((signal) => api.exportText(this.format, this.count, this.includeFailed, signal, this.includeRejected, this.includePlatforms));
    if (got === 'failed') {
      this.preview = '';
      this.lineCount = 0;
    }
    if (got !== 'done') return;
    const text = this.#file.value ?? '';
    let shown = text;
    let sites = 0;
    if (this.format === 'json') {
      // A compact JSON array is one long line: indent it so the preview reads like the others.
      try {
        const arr = JSON.parse(text) as unknown[];
        sites = Array.isArray(arr) ? arr.length : 0;
        shown = JSON.stringify(arr, null, 2);
      } catch {
        /* show it as it came */
      }
    }
    const lines = shown.replace(/\n$/, '').split('\n');
    this.lineCount = shown.trim() ? lines.length : 0;
    if (this.format === 'txt') sites = this.lineCount;
    if (this.format === 'csv') sites = Math.max(0, this.lineCount - 1);
    this.siteCount = sites;
    this.preview = lines.slice(0, PREVIEW_LINES).join('\n');
  }

  #changed(): void {
    this.copied = '';
    const all =
      (this.includeFailed ? '&include_failed=1' : '') +
      (this.includeRejected ? '&include_rejected=1' : '') +
      (this.includePlatforms ? '&include_platforms=1' : '') +
      (this.bom === undefined ? '' : `&bom=${this.bom ? 1 : 0}`);
    history.replaceState(history.state, '', `#/export?format=${this.format}&count=${this.count}${all}`);
    window.clearTimeout(this.#timer);
    this.#timer = window.setTimeout(() => {
      void this.#loadPreview();
      void this.#loadList();
    }, 250);
  }

  #onCount = (ev: Event) => {
    const n = Math.floor(Number((ev.target as HTMLInputElement).value));
    if (!Number.isFinite(n) || n < 1) return;
    this.count = n;
    this.#changed();
  };

  #onFormat = (ev: Event) => {
    this.format = (ev.target as HTMLSelectElement).value as ExportFormat;
    this.#changed();
  };

  #onIncludeFailed = (ev: Event) => {
    this.includeFailed = (ev.target as HTMLInputElement).checked;
    this.#changed();
  };

  #onIncludeRejected = (ev: Event) => {
    this.includeRejected = (ev.target as HTMLInputElement).checked;
    this.#changed();
  };

  #onIncludePlatforms = (ev: Event) => {
    this.includePlatforms = (ev.target as HTMLInputElement).checked;
    this.#changed();
  };

  #onBOM = (ev: Event) => {
    this.bom = (ev.target as HTMLInputElement).checked;
    this.#changed();
  };

  /** bomParam is the byte-order mark parameter of a download in format f: only CSV files take one. */
  #bomParam(f: string): Record<string, string | undefined> {
    return f === 'csv' && this.bom !== undefined ? { bom: String(this.bom) } : {};
  }

  /** deliverable is the one of that name, once the list is in. */
  #deliverable(what: string): Deliverable | undefined {
    return (this.#list.value ?? []).find((d) => d.what === what);
  }

  /** links are a deliverable's downloads, one a format, each under its file name. */
  #links(what: string, params: Record<string, string | number | undefined> = {}) {
    const d = this.#deliverable(what);
    if (!d) return nothing;
    return html`<div class="actions export-links">
      ${(d.formats ?? []).map((f, i) => {
        const name = d.files?.[f] ?? '';
        return html`<a class="btn ${i === 0 ? 'primary' : ''}" data-export=${what} data-format=${f}
          href=${api.exportFileURL(what, f, { ...params, ...this.#bomParam(f) })} download=${name} @click=${this.#downloads.click}>${name}</a>`;
      })}
    </div>`;
  }

  /**
   * savedCollections lists the saved collections, each with its seed list as librarians edited it (unchecked seeds
   * out, seeds added by hand in), one download a format, named PROJECT-seeds-NAME by the server.
   */
  #savedCollections() {
    const list = this.#collections.value ?? [];
    if (this.#collections.error) return alertBox(this.#collections.error);
    if (!list.length) {
      return html`<p class="muted small">No saved collection: save one on the <a href=${href('/communities')}>Communities</a> page to export it as edited.</p>`;
    }
    const files: { file: SeedFile; label: string }[] = [
      { file: 'seeds.txt', label: 'txt' },
      { file: 'seeds.csv', label: 'csv' },
      { file: 'seeds.json', label: 'json' },
    ];
    return html`<h3>Saved collections</h3>
      <p class="muted small">As librarians edited them: <code>sitesift export --what collection --name NAME</code> writes the same files.</p>
      <ul class="saved-collections">
        ${list.map(
          (c) => html`<li data-collection=${c.id}>
            <strong>${c.name}</strong>
            <span class="muted small">by ${c.created_by} · ${int(c.kept)} of ${int(c.communities)} community seeds kept${c.added
              ? ` · ${int(c.added)} added by hand`
              : ''}</span>
            ${files.map(
              (f) => html` <a class="btn small-btn" data-collection-file=${f.file} href=${collectionsApi.fileURL(c.id, f.file)}
                @click=${this.#downloads.click}>${f.label}</a>`,
            )}
          </li>`,
        )}
      </ul>`;
  }

  /** card is one deliverable: its title, what it is for and its downloads. */
  #card(what: string, extra: unknown = nothing) {
    const d = this.#deliverable(what);
    if (!d) return nothing;
    return html`<section class="panel export-card" data-deliverable=${what}>
      <h2>${d.title}</h2>
      <p class="muted purpose">${d.purpose}</p>
      ${this.#leftOutLine(what)}
      ${extra}
      ${this.#links(what)}
    </section>`;
  }

  async #copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.#file.value ?? '');
      this.copied = 'Copied.';
    } catch {
      // Clipboard access needs a secure context and permission; the desktop
      // window may refuse it. Select the preview so Ctrl+C works instead.
      const pre = this.querySelector('pre.preview');
      if (pre) window.getSelection()?.selectAllChildren(pre);
      this.copied = 'Clipboard unavailable — preview selected, press Ctrl+C.';
    }
  }

  override render() {
    const topParams = this.#topParams();
    const url = api.exportFileURL('top-k', this.format, { ...topParams, ...this.#bomParam(this.format) });
    const file = this.#deliverable('top-k')?.files?.[this.format] ?? `top-${this.count}.${this.format}`;
    return html`
      <div class="toolbar"><h1>Export</h1>${spinner(this.#list.loading)}</div>
      <p class="muted export-intro">Every file this project delivers, each under one name wherever it comes from
        (<code>sitesift export --what …</code> writes the same files).</p>
      <label class="check export-bom" title="Excel on Windows reads a CSV file without a byte-order mark in the local code page: café comes out as cafÃ©">
        <input id="export-bom" type="checkbox" .checked=${this.bom ?? false} .indeterminate=${this.bom === undefined} @change=${this.#onBOM} />
        CSV files start with a byte-order mark, for Excel on Windows
        ${this.bom === undefined ? html`<span class="muted small">(as each file has it: the ratings file and the sites table do, the seed lists not)</span>` : nothing}
      </label>
      ${alertBox(this.#list.error)}
      ${this.#downloads.note()}
      <div class="export-cards">
        ${this.#card('approved', html`<p class="small"><a href=${href('/selection')}>Selection</a> shows who nominated and approved each site.</p>`)}
      </div>
      <section class="panel export-card" data-deliverable="top-k">
        <h2>${this.#deliverable('top-k')?.title ?? 'Top sites by importance'}</h2>
        <p class="muted purpose">${this.#deliverable('top-k')?.purpose ?? ''}</p>
        ${this.#leftOutLine('top-k')}
        <div class="export-layout">
          <form class="form" @submit=${(ev: Event) => ev.preventDefault()}>
            <label class="field">
              <span>Number of sites (K)</span>
              <input id="export-count" type="number" min="1" step="1" .value=${String(this.count)} @input=${this.#onCount} />
            </label>
            <label class="field">
              <span>Format</span>
              <select id="export-format" .value=${this.format} @change=${this.#onFormat}>
                ${FORMATS.map((f) => html`<option value=${f.value} ?selected=${f.value === this.format}>${f.label}</option>`)}
              </select>
            </label>
            <label class="check include-failed" title="Sites where every fetch failed, robots.txt closed every URL, or only HTTP errors came back: left out unless ticked">
              <input id="export-include-failed" type="checkbox" .checked=${this.includeFailed} @change=${this.#onIncludeFailed} />
              Include dead and closed sites
            </label>
            <label class="check include-rejected" title="Sites a librarian rejected in the selection: left out unless ticked">
              <input id="export-include-rejected" type="checkbox" .checked=${this.includeRejected} @change=${this.#onIncludeRejected} />
              Include sites librarians rejected
            </label>
            <label class="check include-platforms" title=${PLATFORM_NOTE}>
              <input id="export-include-platforms" type="checkbox" .checked=${this.includePlatforms} @change=${this.#onIncludePlatforms} />
              Include platforms (social networks, video sites, shorteners, CDNs, ad hosts)
            </label>
            <p class="muted small platform-note">${PLATFORM_NOTE}</p>
            <div class="actions">
              <a class="btn primary" id="export-download" data-export="top-k" data-format=${this.format} href=${url} download=${file}
                @click=${this.#downloads.click}>${file}</a>
              <button type="button" class="btn" ?disabled=${!this.lineCount} @click=${() => this.#copy()}>Copy</button>
            </div>
            ${this.copied ? html`<p class="muted small">${this.copied}</p>` : nothing}
          </form>
          <div class="preview-panel">
            <h3>
              Preview
              <span class="count">${int(this.siteCount)} ${this.siteCount === 1 ? 'site' : 'sites'}${this.lineCount > PREVIEW_LINES
                ? ` · first ${PREVIEW_LINES} of ${int(this.lineCount)} lines`
                : ''}</span>
              ${spinner(this.#file.loading)}
            </h3>
            ${alertBox(this.#file.error)}
            ${this.lineCount
              ? html`<pre class="preview" id="export-preview">${this.preview}</pre>`
              : this.#file.error || this.#file.loading
                ? nothing
                : html`<p class="empty">Nothing to export yet: crawl some sites first.</p>`}
          </div>
        </div>
      </section>
      <section class="panel export-card export-communities" data-deliverable="communities">
        <h2>${this.#deliverable('communities')?.title ?? 'Community seeds'}</h2>
        <p class="muted purpose">${this.#deliverable('communities')?.purpose ?? ''}</p>
        ${this.#leftOutLine('communities')}
        <p class="small">To add or leave out seeds first, edit the list on the <a href=${href('/communities')}>Communities</a> page and export it there.</p>
        ${this.#links('communities')}
        <!-- Saved named collections of community seeds are listed in this section, below the current extraction. -->
        <div class="export-collections" data-slot="collections">${this.#savedCollections()}</div>
      </section>
      <!-- Above the ratings row, not at the page's end: the desktop test clicks the lower cards at fixed places
           after scrolling to the end, and a card added below them would move them all. -->
      <ss-wacz-export></ss-wacz-export>
      <div class="export-cards">
        ${this.#card('ratings', html`<p class="small">Read back with Import ratings on the <a href=${href('/agreement')}>Agreement</a> page or <code>sitesift ratings import</code>.</p>`)}
        ${this.#card('sites')}
      </div>
      <h2 class="export-section">For the archiving crawlers</h2>
      <p class="muted export-intro">The approved sites, ready for a crawler that archives them
        (<code>sitesift export --what browsertrix</code> and <code>--what heritrix</code> write the same files).</p>
      <div class="export-cards">
        ${this.#card('browsertrix', html`<p class="small">Run it with
          <code>docker run -v $PWD:/crawls/ webrecorder/browsertrix-crawler crawl --config /crawls/${this.#deliverable('browsertrix')?.files?.['yaml'] ?? 'FILE'}</code>.</p>`)}
        ${this.#card('heritrix-seeds')}
        ${this.#card('heritrix-precedence', html`<p class="small">Load it with Heritrix's <code>PrecedenceLoader</code> before the crawl;
          it gives each site's seed URL, the one in the seeds file, its site's precedence.</p>`)}
      </div>
      <ss-warc-files></ss-warc-files>
    `;
  }
}

customElements.define('ss-export', ExportView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-export': ExportView;
  }
}
