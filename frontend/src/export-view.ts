// ss-export: the seed list of the K most important sites as txt, csv or
// json — a download link and a preview of its first lines — and the
// project's WARC archive.

import { html, nothing } from 'lit';
import { api, type ExportFormat } from './api';
import { LightElement } from './base';
import { Downloads } from './download';
import { int } from './format';
import { alertBox, Loader, spinner } from './loader';
import './warc-files';
import './export-view.css';

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

  /** file is the whole export file; the preview shows its first lines. */
  #file = new Loader<string>(this, '');
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
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const c = Number(this.params.get('count'));
    if (Number.isInteger(c) && c > 0) this.count = c;
    const f = this.params.get('format');
    if (f === 'txt' || f === 'csv' || f === 'json') this.format = f;
    this.includeFailed = this.params.get('include_failed') === '1';
    void this.#loadPreview();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.clearTimeout(this.#timer);
  }

  async #loadPreview(): Promise<void> {
    const got = await this.#file.run((signal) => api.exportText(this.format, this.count, this.includeFailed, signal));
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
    const all = this.includeFailed ? '&include_failed=1' : '';
    history.replaceState(history.state, '', `#/export?format=${this.format}&count=${this.count}${all}`);
    window.clearTimeout(this.#timer);
    this.#timer = window.setTimeout(() => void this.#loadPreview(), 250);
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
    const url = api.exportURL(this.format, this.count, 'importance', this.includeFailed);
    const file = `seeds.${this.format}`;
    return html`
      <div class="toolbar"><h1>Export seeds</h1></div>
      <div class="export-layout">
        <form class="panel form" @submit=${(ev: Event) => ev.preventDefault()}>
          <p class="muted">The most important sites by OPIC, as seed URLs for an archiving crawler.</p>
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
          <div class="actions">
            <a class="btn primary" id="export-download" href=${url} download=${file}
              @click=${this.#downloads.click}>Download ${file}</a>
            <button type="button" class="btn" ?disabled=${!this.lineCount} @click=${() => this.#copy()}>Copy</button>
          </div>
          ${this.#downloads.note()}
          ${this.copied ? html`<p class="muted small">${this.copied}</p>` : nothing}
        </form>
        <section class="panel preview-panel">
          <h2>
            Preview
            <span class="count">${int(this.siteCount)} ${this.siteCount === 1 ? 'site' : 'sites'}${this.lineCount > PREVIEW_LINES
              ? ` · first ${PREVIEW_LINES} of ${int(this.lineCount)} lines`
              : ''}</span>
            ${spinner(this.#file.loading)}
          </h2>
          ${alertBox(this.#file.error)}
          ${this.lineCount
            ? html`<pre class="preview" id="export-preview">${this.preview}</pre>`
            : this.#file.error || this.#file.loading
              ? nothing
              : html`<p class="empty">Nothing to export yet: crawl some sites first.</p>`}
        </section>
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
