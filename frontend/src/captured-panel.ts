// ss-captured: the "Captured" panel of the site page and the review card.
// It replays the site's shallowest captured page with ReplayWeb.page (the
// <replay-web-page> element of replay/ui.js, served by sitesift itself, and
// its service worker replay/sw.js) from the site's own WACZ file (GET
// /api/sites/{site}/captures), and lists the site's other captured pages
// to open there. A site the project never captured says so. Where the page
// cannot register a service worker (the desktop window's WebKitGTK refuses
// one to the app's wails:// pages), it says so and offers to open the site
// page in the system browser, served by the window on loopback (POST
// /api/desktop/browser).

import { html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
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

/** replayBase is where ReplayWeb.page's files are served, relative to the app's page: /replay/ under `serve`. */
function replayBase(): string {
  return new URL('replay/', document.baseURI).pathname;
}

/**
 * replayBlocked says why this page cannot replay, or '' when it can: a
 * service worker needs a secure context (http://127.0.0.1 is one) that
 * offers navigator.serviceWorker.
 */
export function replayBlocked(): string {
  // The window's WebKitGTK has navigator.serviceWorker, but register()
  // refuses a script of the app's own wails:// origin (http and https only).
  const web = location.protocol === 'http:' || location.protocol === 'https:';
  if (web && window.isSecureContext && 'serviceWorker' in navigator) return '';
  return inDesktopWindow()
    ? 'This window cannot replay captures: its WebKit registers service workers for http and https pages only, and ReplayWeb.page needs one.'
    : 'This page cannot replay captures: the browser gives it no service worker (open sitesift at http://127.0.0.1 or localhost, not another address over plain http).';
}

let uiLoaded: Promise<void> | null = null;

/**
 * swActive registers ReplayWeb.page's service worker as <replay-web-page>
 * does (the same script URL and scope, so that there is one registration)
 * and waits until it is active. The element itself goes on as soon as the
 * worker is registered, and its frame, loaded before the worker controls
 * it, would show the server's own /replay/ instead of the replay.
 */
async function swActive(): Promise<void> {
  const base = replayBase();
  const reg = await navigator.serviceWorker.register(`${base}sw.js?serveIndex=1`, { scope: base });
  if (reg.active) return;
  const sw = reg.installing ?? reg.waiting;
  if (!sw) throw new Error('no worker installing');
  await new Promise<void>((ok, fail) => {
    sw.addEventListener('statechange', () => {
      if (sw.state === 'activated') ok();
      else if (sw.state === 'redundant') fail(new Error('the worker was replaced or failed to install'));
    });
  });
}

/**
 * loadReplayUI adds ReplayWeb.page's ui.js to the page once: it defines
 * <replay-web-page>, which registers its service worker. ui.js registers it
 * on the window's load event (register-service-worker waits for it), long
 * past when the app loads it on demand: while ui.js itself runs, a load
 * listener it adds is called at once, as for a script of the page.
 */
function loadReplayUI(): Promise<void> {
  uiLoaded ??= new Promise<void>((ok, fail) => {
    const s = document.createElement('script');
    const add = window.addEventListener;
    window.addEventListener = function (this: Window, type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions) {
      if (type === 'load' && document.currentScript === s && document.readyState === 'complete') {
        queueMicrotask(() => (typeof listener === 'function' ? listener.call(window, new Event('load')) : listener.handleEvent(new Event('load'))));
        return;
      }
      add.call(this, type, listener, options);
    } as typeof window.addEventListener;
    s.src = `${replayBase()}ui.js`;
    s.onload = () => {
      window.addEventListener = add;
      swActive().then(ok, (err: unknown) => {
        uiLoaded = null;
        fail(new Error(`ReplayWeb.page's service worker did not start: ${err instanceof Error ? err.message : String(err)}`));
      });
    };
    s.onerror = () => {
      window.addEventListener = add;
      uiLoaded = null;
      fail(new Error(`ReplayWeb.page (${s.src}) did not load: is the frontend built with it?`));
    };
    document.head.append(s);
  });
  return uiLoaded;
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

export class CapturedPanel extends LightElement {
  static override properties = {
    site: { type: String },
    /** hideable: the review card's panel, which the librarian may hide (kept across cards and reloads). */
    hideable: { type: Boolean },
    shown: { state: true },
    hidden_: { state: true },
    uiError: { state: true },
    uiReady: { state: true },
    browser: { state: true },
  };

  site = '';
  hideable = false;
  /** shown is the URL replayed; '' for the shallowest page. */
  shown = '';
  hidden_ = false;
  uiError = '';
  /** uiReady is true once ReplayWeb.page is loaded and its service worker active. */
  uiReady = false;
  /** browser is what opening the site in the system browser gave: the address, and whether it opened. */
  browser: { url: string; opened: boolean; error: string } | null = null;
  #data = new Loader<SiteCaptures>(this);

  override connectedCallback(): void {
    super.connectedCallback();
    this.hidden_ = this.hideable && localStorage.getItem(HIDDEN_KEY) === '1';
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if ((changed.has('site') || changed.has('hidden_')) && this.site && !this.hidden_) {
      if (changed.has('site')) {
        this.shown = '';
        this.browser = null;
      }
      const site = this.site;
      if (this.#data.value?.site === site && !changed.has('site')) return;
      void this.#data.run((signal) => api.captures(site, signal)).then((out) => {
        const d = this.#data.value;
        if (out === 'done' && d?.source && !replayBlocked()) {
          loadReplayUI().then(
            () => (this.uiReady = true),
            (err: Error) => (this.uiError = err.message),
          );
        }
      });
    }
  }

  #setHidden(h: boolean): void {
    this.hidden_ = h;
    localStorage.setItem(HIDDEN_KEY, h ? '1' : '0');
  }

  override render() {
    if (this.hidden_) {
      return html`<section class="panel captured-panel" data-captured="hidden">
        <h2>Captured <button type="button" class="btn small-btn" data-captured-show @click=${() => this.#setHidden(false)}>Show</button></h2>
      </section>`;
    }
    const d = this.#data.value?.site === this.site ? this.#data.value : null;
    const pages = d?.pages ?? [];
    const url = this.shown || pages[0]?.url || '';
    const blocked = d?.source ? replayBlocked() : '';
    const state = !d ? 'loading' : !d.source ? 'empty' : blocked ? 'blocked' : 'replay';
    return html`<section class="panel captured-panel" data-captured=${state}>
      <h2>Captured
        ${d && d.source ? html`<span class="count">${int(pages.length)}</span>
          <span class="muted small" title="Records of the site's WACZ file: its pages and every other capture">${int(d.captures)} captures · ${bytes(d.bytes)}</span>` : nothing}
        ${spinner(this.#data.loading)}
        ${this.hideable ? html`<button type="button" class="btn small-btn captured-hide" data-captured-hide title="Hide the replay on every review card" @click=${() => this.#setHidden(true)}>Hide</button>` : nothing}
      </h2>
      ${alertBox(this.#data.error || this.uiError)}
      ${d && !d.source ? html`<p class="empty" data-captured-empty>${d.empty}</p>` : nothing}
      ${blocked ? this.#renderBlocked(blocked, url) : nothing}
      ${d?.source && !blocked
        ? html`<div class="captured-body">
            <div class="captured-frame" data-replay-url=${url}>
              ${!this.uiReady
                ? html`<p class="muted small captured-starting">Starting ReplayWeb.page…</p>`
                : keyed(url, html`<replay-web-page source=${`/${d.source}`} url=${url} replaybase=${replayBase()} embed="replayonly"></replay-web-page>`)}
            </div>
            ${this.#renderList(pages, url)}
          </div>`
        : nothing}
      ${d?.note ? html`<p class="muted small" data-captured-note>${d.note.charAt(0).toUpperCase() + d.note.slice(1)}.</p>` : nothing}
    </section>`;
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
          title=${p.url} @click=${() => (this.shown = p.url)}>
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
