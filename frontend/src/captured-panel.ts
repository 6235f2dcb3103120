// ss-captured: the "Captured" panel of the site page and the review card.
// It replays the site's shallowest captured page with ReplayWeb.page, and
// lists the site's other captured pages to open there. A site the project
// never captured says so.
//
// Archived pages run scripts, so the replay never runs on the app's origin:
// the panel frames the frame page of the server's replay origin (the
// captures' `frame`, app/httpapi/replay.go), in a sandbox that cannot
// navigate the app away. That page holds <replay-web-page> and its service
// worker. It tells the panel which URL it shows through messages, which the
// panel takes as text from a stranger: an archived script can send them too.
// Where the frame cannot replay (the desktop window's WebKitGTK may refuse
// it a service worker), it says why, and the window offers to open the site
// page in the system browser (POST /api/desktop/browser).

import { html, nothing } from 'lit';
import { api, message, request, type Answer } from './api';
import { LightElement } from './base';
import { inDesktopWindow } from './download';
import { bytes, int } from './format';
import { alertBox, Loader, spinner } from './loader';
import './captured-panel.css';

type SiteCaptures = Answer<'GET /api/sites/{site}/captures'>;

/** HIDDEN_KEY keeps, in localStorage, that the librarian hid the panel on review cards. */
const HIDDEN_KEY = 'sitesift.captured.hidden';

/** LIST_MAX bounds the list of captured pages shown; the rest are counted. */
const LIST_MAX = 100;

/** FRAME_SANDBOX lets the replay run scripts on its own origin (its service worker needs it), and nothing against the app: no top navigation, no popups. */
const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms';

/** NO_ORIGIN says why a server without a replay origin shows no replay. */
const NO_ORIGIN = 'This server replays no captures: it was started without its replay origin.';

/**
 * ReplayNote is what the frame page said last: its state and the page it shows, with how many style sheets
 * that page links to and how many of them did not load (null while it has not said).
 */
type ReplayNote = { state: string; why: string; url: string; title: string; notFound: boolean; sheets: number | null; missingSheets: number | null };

/** readNote takes a message of the replay origin's frame as plain text fields, or null when it is not one. */
function readNote(data: unknown): ReplayNote | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.sitesift !== 'replay' || typeof d.state !== 'string') return null;
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 2000) : '');
  const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 10000 ? v : null);
  return { state: d.state, why: text(d.why), url: text(d.url), title: text(d.title), notFound: d.notFound === true,
    sheets: count(d.sheets), missingSheets: count(d.missingSheets) };
}

/** pathOf is a page URL's path and query, what tells it from the site's other pages. */
function pathOf(u: string): string {
  try {
    const x = new URL(u);
    return x.pathname + x.search;
  } catch {
    return u;
  }
}

/**
 * forgetAppWorkers unregisters the service workers of the app's own origin:
 * earlier versions replayed captures there, and a worker left registered
 * would go on replaying archived scripts with the app's authority.
 */
export function forgetAppWorkers(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.getRegistrations().then(
    (regs) => regs.forEach((r) => void r.unregister()),
    () => undefined,
  );
}

export class CapturedPanel extends LightElement {
  static override properties = {
    site: { type: String },
    /** hideable: the review card's panel, which the librarian may hide (kept across cards and reloads). */
    hideable: { type: Boolean },
    shown: { state: true },
    hidden_: { state: true },
    note: { state: true },
    uiError: { state: true },
    browser: { state: true },
    again: { state: true },
  };

  site = '';
  hideable = false;
  /** shown is the URL replayed; '' for the shallowest page. */
  shown = '';
  hidden_ = false;
  /** note is what the frame page said last, null before it said anything. */
  note: ReplayNote | null = null;
  uiError = '';
  /** browser is what opening the site in the system browser gave: the address, and whether it opened. */
  browser: { url: string; opened: boolean; error: string } | null = null;
  /** again counts the times the frame was loaded anew (the way back from a page the librarian followed to). */
  again = 0;
  #data = new Loader<SiteCaptures>(this);

  override connectedCallback(): void {
    super.connectedCallback();
    this.hidden_ = this.hideable && localStorage.getItem(HIDDEN_KEY) === '1';
    window.addEventListener('message', this.#onMessage);
    window.addEventListener('blur', this.#onBlur);
  }

  override disconnectedCallback(): void {
    window.removeEventListener('message', this.#onMessage);
    window.removeEventListener('blur', this.#onBlur);
    super.disconnectedCallback();
  }

  /** frame is the panel's replay frame, once rendered. */
  #frame(): HTMLIFrameElement | null {
    return this.querySelector('iframe.replay-frame');
  }

  /** onMessage takes what this panel's replay frame says; any other message is ignored. */
  #onMessage = (e: MessageEvent): void => {
    const f = this.#frame();
    const d = this.#current();
    if (!f || !d?.frame || e.source !== f.contentWindow || e.origin !== new URL(d.frame).origin) return;
    const n = readNote(e.data);
    if (!n) return;
    const was = this.note;
    if (n.state === 'url' && n.sheets === null && was?.url === n.url) {
      // ReplayWeb.page's own word on the URL says nothing of its style sheets: keep what the frame counted.
      n.sheets = was.sheets;
      n.missingSheets = was.missingSheets;
    }
    this.note = n.state === 'url' || !was || was.state !== 'url' ? n : { ...was, state: n.state, why: n.why };
  };

  /**
   * onBlur gives the keyboard back to the review card when a click went
   * into the replay: the card's keys (1–4 rate) would otherwise go to the
   * archived page. The click itself still reaches the replay.
   */
  #onBlur = (): void => {
    if (!this.hideable) return;
    setTimeout(() => {
      const f = this.#frame();
      if (f && document.activeElement === f) {
        f.blur();
        const card = this.closest<HTMLElement>('.review-card');
        card?.focus({ preventScroll: true });
        if (document.activeElement === f) window.focus();
      }
    }, 0);
  };

  /** current is the captures of this panel's site, null while they load. */
  #current(): SiteCaptures | null {
    return this.#data.value?.site === this.site ? this.#data.value : null;
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if ((changed.has('site') || changed.has('hidden_')) && this.site && !this.hidden_) {
      if (changed.has('site')) {
        this.shown = '';
        this.note = null;
        this.browser = null;
      }
      const site = this.site;
      if (this.#data.value?.site === site && !changed.has('site')) return;
      void this.#data.run((signal) => api.captures(site, signal));
    }
  }

  #setHidden(h: boolean): void {
    this.hidden_ = h;
    localStorage.setItem(HIDDEN_KEY, h ? '1' : '0');
  }

  /** show replays url, one of the site's captured pages. */
  #show(url: string): void {
    this.shown = url;
    this.note = this.note && { ...this.note, notFound: false };
  }

  override render() {
    if (this.hidden_) {
      return html`<section class="panel captured-panel" data-captured="hidden">
        <h2>Captured <button type="button" class="btn small-btn" data-captured-show @click=${() => this.#setHidden(false)}>Show</button></h2>
      </section>`;
    }
    const d = this.#current();
    const pages = d?.pages ?? [];
    const url = this.shown || pages[0]?.url || '';
    const blocked = !d?.source ? '' : !d.frame ? NO_ORIGIN : this.note?.state === 'blocked' || this.note?.state === 'error' ? this.note.why : '';
    const state = !d ? 'loading' : !d.source ? 'empty' : blocked ? 'blocked' : 'replay';
    return html`<section class="panel captured-panel" data-captured=${state} data-replay-state=${this.note?.state ?? 'starting'}>
      <h2>Captured
        ${d && d.source ? html`<span class="count">${int(pages.length)}</span>
          <span class="muted small" title="Records of the site's WACZ file: its pages and every other capture">${int(d.captures)} captures · ${bytes(d.bytes)}</span>` : nothing}
        ${spinner(this.#data.loading)}
        ${this.hideable ? html`<button type="button" class="btn small-btn captured-hide" data-captured-hide title="Hide the replay on every review card" @click=${() => this.#setHidden(true)}>Hide</button>` : nothing}
      </h2>
      ${alertBox(this.#data.error || this.uiError)}
      ${d && !d.source ? html`<p class="empty" data-captured-empty>${d.empty}</p>` : nothing}
      ${blocked ? this.#renderBlocked(blocked, url) : nothing}
      ${d?.source && d.frame && !blocked
        ? html`<div class="captured-body">
            <div class="captured-frame" data-replay-url=${url}>
              ${this.#renderShown(pages, url)}
              <iframe class="replay-frame" title="Replay of ${this.site}: ${url}" sandbox=${FRAME_SANDBOX} referrerpolicy="no-referrer"
                allow="" src=${`${d.frame}${this.again ? `&again=${this.again}` : ''}#${encodeURIComponent(url)}`}></iframe>
            </div>
            ${this.#renderList(pages, url)}
          </div>`
        : nothing}
      ${d?.note ? html`<p class="muted small" data-captured-note>${d.note.charAt(0).toUpperCase() + d.note.slice(1)}.</p>` : nothing}
    </section>`;
  }

  /**
   * renderShown says what the frame shows once the librarian followed a
   * link inside it: the page, or plainly that it was not captured, with the
   * way back. On the review card it says that the card keeps the keyboard.
   */
  #renderShown(pages: SiteCaptures['pages'], url: string) {
    const n = this.note;
    const keys = this.hideable ? html`<span class="muted small captured-keys">A click in the replay leaves the keyboard to the card: 1–4 still rate.</span>` : nothing;
    const plain = this.#renderUnstyled();
    if (!n || n.state !== 'url' || !n.url || n.url === url) {
      return keys === nothing && plain === nothing ? nothing : html`<p class="captured-shown">${plain}${keys}</p>`;
    }
    const captured = (pages ?? []).some((p) => p.url === n.url);
    return html`<p class="captured-shown" data-captured-shown=${n.notFound || !captured ? 'not-captured' : 'captured'}>
      ${n.notFound
        ? html`<span class="captured-miss" role="status"><strong>Not captured:</strong> <code>${n.url}</code> is not in this project's crawl of the site.</span>`
        : html`<span class="small">Showing <code>${pathOf(n.url)}</code>${captured ? nothing : html`, not among the site's captured pages`}.</span>`}
      <button type="button" class="btn small-btn" data-captured-back @click=${() => this.#back()}>Back to ${pathOf(url)}</button>
      ${plain}${keys}
    </p>`;
  }

  /**
   * renderUnstyled says why the page shown looks plain when its style
   * sheets did not load: the crawl keeps pages, not what they link to.
   */
  #renderUnstyled() {
    const n = this.note;
    if (!n || n.state !== 'url' || n.notFound || !n.missingSheets || n.sheets === null) return nothing;
    const all = n.missingSheets === n.sheets;
    return html`<span class="small captured-unstyled" role="status" data-captured-unstyled=${n.missingSheets}
      title="sitesift's crawl keeps a site's pages for ranking and review, not their style sheets, images or scripts">
      Shown without ${all ? (n.sheets === 1 ? 'its style sheet' : `its ${int(n.sheets)} style sheets`) : `${int(n.missingSheets)} of its ${int(n.sheets)} style sheets`}:
      the crawl keeps pages, not their style sheets.</span>`;
  }

  /**
   * back shows url again in the frame. The fragment did not change when
   * the librarian followed a link inside, so the frame page is loaded anew:
   * another query, which the replay origin ignores.
   */
  #back(): void {
    this.note = null;
    this.again++;
  }

  #renderBlocked(why: string, url: string) {
    if (!inDesktopWindow()) return html`<div class="captured-blocked" data-captured-blocked><p>${why}</p></div>`;
    const b = this.browser;
    return html`<div class="captured-blocked" data-captured-blocked>
      <p>${why}</p>
      <p class="captured-browser">
        <button type="button" class="btn small-btn primary" data-captured-browser @click=${() => void this.#openBrowser()}>Open the replay in your web browser</button>
        ${b?.opened
          ? html`<span class="small" role="status" data-browser-url=${b.url}>Opened <code>${b.url}</code> in your web browser: sitesift serves this project there while this window is open.</span>`
          : b
            ? html`<span class="small" role="status" data-browser-url=${b.url}>Your web browser could not be started (${b.error}): open <code>${b.url}</code> in it.</span>`
            : html`<span class="muted small">It shows this site page${url ? html`, <code>${pathOf(url)}</code> first,` : nothing} served by this window to your browser, where the replay works.</span>`}
      </p>
    </div>`;
  }

  /** openBrowser asks the window to serve the app on loopback and open this site's page in the system browser. */
  async #openBrowser(): Promise<void> {
    try {
      this.browser = await request<Answer<'POST /api/desktop/browser'>>('POST', '/api/desktop/browser', {
        page: `#/sites/${encodeURIComponent(this.site)}`,
      });
    } catch (err) {
      this.uiError = message(err);
    }
  }

  #renderList(pages: SiteCaptures['pages'], url: string) {
    const list = pages ?? [];
    if (list.length <= 1) return nothing;
    return html`<ol class="captured-pages" aria-label="Captured pages of ${this.site}">
      ${list.slice(0, LIST_MAX).map(
        (p) => html`<li><button type="button" class="linkish" data-captured-url=${p.url} aria-current=${p.url === url ? 'true' : 'false'}
          title=${p.url} @click=${() => this.#show(p.url)}>
          <span class="cp-title">${p.title || pathOf(p.url)}</span>
          <span class="cp-path muted small">${pathOf(p.url)}</span></button></li>`,
      )}
      ${list.length > LIST_MAX ? html`<li class="muted small">and ${int(list.length - LIST_MAX)} more</li>` : nothing}
    </ol>`;
  }
}

customElements.define('ss-captured', CapturedPanel);

declare global {
  interface HTMLElementTagNameMap {
    'ss-captured': CapturedPanel;
  }
}
