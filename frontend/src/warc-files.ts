// ss-warc-files: the project's WARC archive on the Export page — every file of
// the crawls' archive with its size and captures, each a download; the file a
// running crawl is still writing is listed but cannot be downloaded yet.
//
// In a browser each file is a plain download link. In the desktop window such
// a link saves nothing (see download.ts): there the page fetches the file and
// saves it itself, and says where it went and where the archive lies on disk.

import { html, nothing } from 'lit';
import { api, ApiError, type WarcFile } from './api';
import { LightElement } from './base';
import { Downloads, inDesktopWindow, savedWhere } from './download';
import { bytes, date, int } from './format';
import { alertBox, Loader, spinner } from './loader';
import './warc-files.css';

export class WarcFiles extends LightElement {
  static override properties = {
    dir: { state: true },
  };

  /** dir is the project's folder, which holds the archive under warcs/ (window only). */
  declare dir: string;

  /** files are the archive's files, oldest first; null from a server that keeps no archive list. */
  #files = new Loader<WarcFile[] | null>(this);
  /** downloads fetches and saves a file in the window, where its link alone saves nothing. */
  #downloads = new Downloads(this);

  constructor() {
    super();
    this.dir = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (inDesktopWindow()) {
      api.project().then(
        (p) => (this.dir = p.dir),
        () => undefined, // the folder is a hint only
      );
    }
    void this.#files.run(async (signal) => {
      try {
        return (await api.warcs(signal)) ?? [];
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null; // an older server
        throw err;
      }
    });
  }

  #renderFile(f: WarcFile, desktop: boolean) {
    const name = f.open
      ? html`<span class="name" title="A crawl is writing this file: it can be downloaded once the crawl ends">${f.name}</span>
          <span class="open-note">being written — downloadable once the crawl ends</span>`
      : html`<a class="name" href=${api.warcURL(f.name)} download=${f.name} @click=${this.#downloads.click}>${f.name}</a>
          ${desktop && this.#downloads.saving === f.name ? spinner(true, 'Saving') : nothing}`;
    return html`<tr data-warc=${f.name} data-open=${f.open ? 'true' : 'false'}>
      <td>${name}</td>
      <td class="num" title="${int(f.size)} bytes">${bytes(f.size)}</td>
      <td class="num" title="Captures: response and revisit records, each with its request">${int(f.records)}</td>
      <td class="nowrap muted">${f.modified ? date(f.modified) : '–'}</td>
    </tr>`;
  }

  override render() {
    const files = this.#files.value;
    if (files === null && !this.#files.loading && !this.#files.error) return nothing;
    const desktop = inDesktopWindow();
    const total = (files ?? []).reduce((n, f) => n + f.size, 0);
    return html`<section class="panel warc-files">
      <h2>
        WARC archive
        ${files?.length ? html`<span class="count">${int(files.length)} ${files.length === 1 ? 'file' : 'files'} · ${bytes(total)}</span>` : nothing}
        ${spinner(this.#files.loading)}
      </h2>
      <p class="muted lead">Every response of the project's crawls with its request, as gzip WARC 1.1 files for wayback
        tools (pywb, OpenWayback) and archive ingest.</p>
      ${alertBox(this.#files.error)}
      ${files && files.length === 0 ? html`<p class="empty">No WARC file yet: a crawl writes them.</p>` : nothing}
      ${files?.length
        ? html`<table class="data compact warc-table" aria-label="WARC files">
            <thead><tr><th>File</th><th class="num">Size</th><th class="num">Captures</th><th>Modified</th></tr></thead>
            <tbody>${files.map((f) => this.#renderFile(f, desktop))}</tbody>
          </table>`
        : nothing}
      ${alertBox(this.#downloads.error)}
      ${desktop && this.#downloads.saved
        ? html`<p class="saved-note" id="warc-saved" role="status">${savedWhere(this.#downloads.saved)}</p>`
        : nothing}
      ${desktop && this.#downloads.cancelled
        ? html`<p class="saved-note" id="warc-cancelled" role="status">Not saved: the Save dialog of <code>${this.#downloads.cancelled}</code> was cancelled.</p>`
        : nothing}
      ${desktop && files?.length
        ? html`<p class="hint" id="warc-desktop-note">Each file asks where to save it${this.dir ? html`; the files are also in <code>${this.dir}/warcs/</code>` : nothing}.</p>`
        : nothing}
    </section>`;
  }
}

customElements.define('ss-warc-files', WarcFiles);

declare global {
  interface HTMLElementTagNameMap {
    'ss-warc-files': WarcFiles;
  }
}
