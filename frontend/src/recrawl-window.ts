// The project's window policy, beside the Recrawl button: which recent
// crawls set the importance after a recrawl. A change is saved at once.

import { html } from 'lit';
import { api, message, WINDOW_POLICIES, type CrawlSettings, type WindowPolicy } from './api';
import { LightElement } from './base';
import { alertBox, Loader } from './loader';
import './recrawl-window.css';

const HINTS: Record<WindowPolicy, string> = {
  variable: 'Variable Window: the last N crawls that read each site (the default: the best of `sitesift lab windows` at most change rates)',
  fixed: 'Fixed Window: the readings of the last N crawls',
  improved: 'Improved Fixed Window: the last N crawls, at least 3 readings a site',
  interpolation: 'Interpolation (Xyleme): one interpolated reading a site over N crawls',
  'full-history': 'No window: the whole history, as plain OPIC',
};

export class RecrawlWindow extends LightElement {
  static override properties = { saving: { state: true }, saveError: { state: true } };

  saving = false;
  saveError = '';
  #settings = new Loader<CrawlSettings>(this);

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#settings.run((signal) => api.settings(signal));
  }

  async #save(change: { window?: WindowPolicy; window_size?: number }): Promise<void> {
    this.saving = true;
    try {
      this.#settings.value = await api.saveSettings(change);
      this.saveError = '';
    } catch (err) {
      this.saveError = message(err);
    } finally {
      this.saving = false;
    }
  }

  override render() {
    const s = this.#settings.value;
    const policy = s?.window ?? 'variable';
    return html`<div class="recrawl-window" title=${HINTS[policy]}>
      <label>Importance window
        <select id="recrawl-window" .value=${policy} ?disabled=${!s || this.saving}
          @change=${(e: Event) => this.#save({ window: (e.target as HTMLSelectElement).value as WindowPolicy })}>
          ${WINDOW_POLICIES.map((p) => html`<option value=${p} ?selected=${p === policy} title=${HINTS[p]}>${p}</option>`)}
        </select></label>
      <label>over
        <input id="recrawl-window-size" type="number" min="1" max="100" .value=${String(s?.window_size ?? 1)}
          ?disabled=${!s || this.saving}
          @change=${(e: Event) => {
            const n = Number((e.target as HTMLInputElement).value);
            void this.#save({ window_size: n });
          }} /> crawl(s)</label>
      ${alertBox(this.saveError || this.#settings.error)}
    </div>`;
  }
}

customElements.define('ss-recrawl-window', RecrawlWindow);
