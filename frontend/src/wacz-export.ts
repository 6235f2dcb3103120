// ss-wacz-export: the crawl as one WACZ file on the Export page, for
// ReplayWeb.page and other WACZ tools: what it holds (WARC files, captures),
// what it leaves out (a file a running crawl writes, imported archives the
// project does not keep), and its download. A project with no captures of its
// own says so instead of offering a file the server would refuse.

import { html, nothing } from 'lit';
import { api, ApiError, type WaczInfo } from './api';
import { LightElement } from './base';
import { Downloads } from './download';
import { bytes, int } from './format';
import { alertBox, Loader, spinner } from './loader';

export class WaczExport extends LightElement {
  /** info is what the package holds; null from a server that makes none. */
  #info = new Loader<WaczInfo | null>(this);
  #downloads = new Downloads(this);

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#info.run(async (signal) => {
      try {
        return await api.wacz(signal);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null; // an older server
        throw err;
      }
    });
  }

  override render() {
    const info = this.#info.value;
    if (info === null && !this.#info.loading && !this.#info.error) return nothing;
    return html`<section class="panel export-card wacz-export" data-deliverable="wacz">
      <h2>Crawl for replay (WACZ) ${spinner(this.#info.loading)}</h2>
      <p class="muted purpose">Every capture of the project's crawls in one file — the WARC files, their index and the
        HTML pages with their titles — to open in ReplayWeb.page or another WACZ tool.</p>
      ${alertBox(this.#info.error)}
      ${info && info.warcs > 0
        ? html`<p class="small wacz-holds">${int(info.warcs)} WARC ${info.warcs === 1 ? 'file' : 'files'} · ${int(info.captures)}
              captures · ${bytes(info.bytes)}</p>
            ${info.note ? html`<p class="small muted wacz-note">Left out: ${info.note}.</p>` : nothing}
            <div class="actions export-links">
              <a class="btn primary" data-export="wacz" data-format="wacz" href=${api.waczURL} download=${info.name}
                @click=${this.#downloads.click}>${info.name}</a>
            </div>
            ${this.#downloads.note()}`
        : nothing}
      ${info && info.warcs === 0
        ? html`<p class="empty wacz-empty">Nothing to package: no crawl of this project wrote a WARC file${info.note
            ? html` (${info.note})`
            : nothing}.</p>`
        : nothing}
    </section>`;
  }
}

customElements.define('ss-wacz-export', WaczExport);

declare global {
  interface HTMLElementTagNameMap {
    'ss-wacz-export': WaczExport;
  }
}
