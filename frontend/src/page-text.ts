// ss-page-text: one crawled page's text, opened from a list of pages (the
// site page's, the review card's): its main text, what search finds, by
// default; the whole page's text, template included, on the "Whole page"
// toggle; with its language, its publication date and its links by kind.

import { html, nothing } from 'lit';
import { api, type PageText } from './api';
import { LightElement } from './base';
import { date, int } from './format';
import { alertBox, Loader, spinner } from './loader';
import './page-text.css';

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** languageName is "French (fr)" for "fr", the code alone when the browser does not know it. */
function languageName(code: string): string {
  try {
    const name = languageNames.of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/** day formats a publication date: the day the page says, in UTC, where it was stored. */
function day(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
}

export class PageTextView extends LightElement {
  static override properties = {
    url: { type: String },
    whole: { state: true },
  };

  /** url is the page shown. */
  declare url: string;
  /** whole shows the whole page's text rather than the main text. */
  declare whole: boolean;

  #page = new Loader<PageText>(this);

  constructor() {
    super();
    this.url = '';
    this.whole = false;
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('url')) {
      this.whole = false;
      this.#page.value = null;
      const url = this.url;
      if (url) void this.#page.run((signal) => api.pageText(url, signal));
    }
  }

  #renderMeta(p: PageText) {
    const template = p.repeated_links
      ? `${int(p.template_links)} template (${int(p.repeated_links)} of them in the main text but on most pages of the site)`
      : `${int(p.template_links)} template`;
    return html`<dl class="pt-meta">
      <div><dt>Language</dt><dd data-language=${p.language}>${p.language ? languageName(p.language) : html`<span class="muted">not told</span>`}</dd></div>
      <div><dt>Published</dt><dd data-published=${p.published ?? ''}>${p.published ? day(p.published) : html`<span class="muted">no date given</span>`}</dd></div>
      <div title="Editorial links sit in the main text, where its authors wrote them; template links in the navigation, footer, share buttons and the like">
        <dt>Links</dt><dd data-links=${`${p.editorial_links} ${p.template_links}`}>${int(p.editorial_links)} editorial · ${template}</dd></div>
    </dl>`;
  }

  #renderBody(p: PageText) {
    if (!p.text && !p.full_text) {
      return html`<p class="empty small" data-no-text>This page has no text: an image, a file, or an empty page.</p>`;
    }
    // A page fetched before the main text was told apart kept its whole
    // text as its text: both views show it, saying what it is.
    const text = this.whole && !p.full_text_missing ? p.full_text : p.text;
    return html`${p.full_text_missing
        ? html`<p class="pt-missing small" data-full-text-missing>The whole page's text was not kept apart for pages fetched before
            sitesift told a page's main text from its template${p.fetched_at ? html` (this one was fetched ${date(p.fetched_at)})` : nothing}.
            The text below is the one kept then: the whole page's, template included, and its links all count as editorial until
            the site is crawled again.</p>`
        : nothing}
      <div class="pt-body" data-view=${this.whole ? 'whole' : 'main'} tabindex="0">${text}</div>`;
  }

  override render() {
    const p = this.#page.value;
    return html`<div class="page-text" data-page-text=${this.url}>
      <div class="pt-head">
        <div class="pt-toggle" role="group" aria-label="Text shown">
          <button type="button" class="opt ${this.whole ? '' : 'on'}" aria-pressed=${this.whole ? 'false' : 'true'} data-show="main"
            title="The page's main content, what its authors wrote: what search finds" @click=${() => (this.whole = false)}>Main text</button>
          <button type="button" class="opt ${this.whole ? 'on' : ''}" aria-pressed=${this.whole ? 'true' : 'false'} data-show="whole"
            title="The whole page's text, navigation, footer and the rest of its template included: kept, never searched" @click=${() => (this.whole = true)}>Whole page</button>
        </div>
        ${spinner(this.#page.loading)}
        ${p ? html`<span class="muted small" data-text-length>${int((this.whole && !p.full_text_missing ? p.full_text : p.text).length)} characters</span>` : nothing}
      </div>
      ${alertBox(this.#page.error)}
      ${p ? html`${this.#renderMeta(p)}${this.#renderBody(p)}` : nothing}
    </div>`;
  }
}

customElements.define('ss-page-text', PageTextView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-page-text': PageTextView;
  }
}
