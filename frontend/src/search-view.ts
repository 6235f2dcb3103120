// ss-search: full-text search over the crawled pages, optionally within one
// site. The query lives in the hash (#/search?q=..&site=..&any=1&offset=..).
// Every word is required unless "any word" is chosen. The facet by site (the
// sites with the most hits over all hits) filters with a click; the query
// syntax (listed in the help below the form) is the server's (see
// app/httpapi/API.md), and so are the plain-words messages of a query it
// refuses.

import { html, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { api, ApiError, type SearchProblem, type SearchResult } from './api';
import { LightElement } from './base';
import { EXPLAIN } from './explainer';
import { int, snippetHTML } from './format';
import { alertBox, Loader, spinner } from './loader';
import { href, navigate, siteHref } from './router';
import './search-view.css';

const PAGE_SIZE = 20;

/** SYNTAX lists every operator of the query syntax the server keeps, with an example each. */
const SYNTAX: { op: string; example: string; meaning: string }[] = [
  { op: 'words', example: 'jazz records', meaning: 'pages with both words (or either, with “any word”); “records” also finds “record”' },
  { op: '"phrase"', example: '"jazz records"', meaning: 'the words together, in this order' },
  { op: '+word', example: 'jazz +vinyl', meaning: 'the word is required, even with “any word”' },
  { op: '-word', example: 'jazz -festival', meaning: 'pages without the word' },
  { op: 'field:value', example: 'title:jazz', meaning: 'in one field: title, text, site (site:example.org keeps one site, -site: leaves it out) or url (url:"http://example.org/page")' },
  { op: 'wildcard * ?', example: 'archiv*', meaning: '* stands for any letters, ? for one' },
  { op: 'fuzzy ~', example: 'archve~1', meaning: 'words up to 1 (or ~2: 2) letters different' },
  { op: 'boost ^', example: 'jazz^3 records', meaning: 'counts a word more in the ordering' },
  { op: '/regexp/', example: '/colou?r/', meaning: 'a regular expression over single words' },
  { op: '\\', example: 'c\\+\\+', meaning: 'a backslash makes the next character plain text: + - " : ^ ~ * ? / \\' },
];

/** Advice is a wider query to try when one found nothing, and why it might find something. */
interface Advice {
  kind: 'any' | 'exclusion' | 'phrase' | 'site' | 'required';
  why: string;
  label: string;
  q: string;
  site: string;
  any: boolean;
}

/** TERM splits a query into its terms: an optional + or -, an optional field, and a word or a quoted phrase. */
const TERM = /([+-]?)(?:([A-Za-z_]+):)?("(?:[^"\\]|\\.)*"?|\S+)/g;

/**
 * noMatchAdvice is what to try when q (on site, with anyWord) found nothing, fitted to the query's operators:
 * without its exclusions, its phrases as loose words, without its site filter, with any of its plain words,
 * without its required words. Nothing when the query has nothing to widen.
 */
export function noMatchAdvice(q: string, site: string, anyWord: boolean): Advice[] {
  const terms = [...q.matchAll(TERM)].map((m) => ({ text: m[0], sign: m[1] ?? '', field: m[2] ?? '', body: m[3] ?? '' }));
  const join = (ts: typeof terms) => ts.map((t) => t.text).join(' ');
  const words = (ts: typeof terms) => ts.map((t) => `“${t.field ? `${t.field}:` : ''}${t.body.replace(/^"|"$/g, '')}”`).join(' or ');
  const out: Advice[] = [];
  const excluded = terms.filter((t) => t.sign === '-');
  const kept = terms.filter((t) => t.sign !== '-');
  if (excluded.length > 0 && kept.length > 0) {
    out.push({ kind: 'exclusion', why: `Pages with ${words(excluded)} are left out`, label: join(kept), q: join(kept), site, any: anyWord });
  }
  const isPhrase = (t: (typeof terms)[number]) => t.sign !== '-' && !t.field && t.body.startsWith('"') && t.body.length > 2;
  if (terms.some(isPhrase)) {
    const loose = terms.map((t) => (isPhrase(t) ? t.body.replace(/^"|"$/g, '') : t.text)).join(' ');
    out.push({ kind: 'phrase', why: 'A phrase must appear word for word', label: loose, q: loose, site, any: anyWord });
  }
  const siteTerms = terms.filter((t) => t.field.toLowerCase() === 'site' && t.sign !== '-');
  const rest = terms.filter((t) => !siteTerms.includes(t));
  if ((site || siteTerms.length > 0) && rest.length > 0) {
    out.push({ kind: 'site', why: `Only ${site || siteTerms.map((t) => t.body).join(', ')} was searched`, label: 'every site', q: join(rest), site: '', any: anyWord });
  }
  const required = terms.filter((t) => t.sign === '+');
  // Without any word, every word is required already: + only narrows a search for any word.
  if (anyWord && required.length > 0 && kept.length > required.length) {
    const loose = terms.map((t) => (t.sign === '+' ? t.text.slice(1) : t.text)).join(' ');
    out.push({ kind: 'required', why: `${words(required)} must be on every page`, label: loose, q: loose, site, any: anyWord });
  }
  // "Any word" widens only plain words: with one plain word, or only operators, it changes nothing.
  const plain = terms.filter((t) => !t.sign && !t.field && !t.body.startsWith('"'));
  if (!anyWord && plain.length >= 2) {
    out.push({ kind: 'any', why: 'Every word must be on the page', label: 'any word', q, site, any: true });
  }
  return out;
}

export class SearchView extends LightElement {
  static override properties = {
    params: { attribute: false },
    qText: { state: true },
    siteText: { state: true },
  };

  declare params: URLSearchParams;
  declare qText: string;
  declare siteText: string;

  #result = new Loader<SearchResult>(this);
  #timer: number | undefined;

  constructor() {
    super();
    this.params = new URLSearchParams();
    this.qText = '';
    this.siteText = '';
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.clearTimeout(this.#timer);
  }

  get q(): string {
    return this.params.get('q') ?? '';
  }

  get site(): string {
    return this.params.get('site') ?? '';
  }

  get offset(): number {
    const n = Number(this.params.get('offset') ?? 0);
    return Number.isInteger(n) && n > 0 ? n : 0;
  }

  /** anyWord is the OR toggle: pages with any of the words instead of all of them. */
  get anyWord(): boolean {
    return this.params.get('any') === '1';
  }

  /** problem is the data of the last refused query: what is wrong (and where), null otherwise. */
  #problem: SearchProblem | null = null;

  /** focusQuery puts the cursor in the query box (the global "/" shortcut). */
  focusQuery(): void {
    const box = this.querySelector<HTMLInputElement>('#search-q');
    box?.focus();
    box?.select();
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (!changed.has('params')) return;
    const typing = document.activeElement;
    if (typing !== this.querySelector('#search-q')) this.qText = this.q;
    if (typing !== this.querySelector('#search-site')) this.siteText = this.site;
  }

  protected override firstUpdated(): void {
    if (!this.q) this.focusQuery();
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if (!changed.has('params')) return;
    const prev = changed.get('params') as URLSearchParams | undefined;
    if (!prev || prev.toString() !== this.params.toString()) void this.#search();
  }

  async #search(): Promise<void> {
    if (!this.q.trim()) {
      this.#result.abort();
      this.#result.value = null;
      this.#result.error = '';
      return;
    }
    this.#problem = null;
    const got = await this.#result.run(async (signal) => {
      try {
        return await api.search({ q: this.q, site: this.site, offset: this.offset, limit: PAGE_SIZE, any: this.anyWord ? 1 : undefined }, signal);
      } catch (err) {
        if (err instanceof ApiError && err.status === 400) this.#problem = (err.data as SearchProblem | undefined) ?? null;
        throw err;
      }
    });
    if (got === 'failed') this.#result.value = null;
  }

  #go(replace: boolean, offset = 0, anyWord = this.anyWord): void {
    navigate(href('/search', { q: this.qText.trim(), site: this.siteText.trim(), any: anyWord ? 1 : null, offset: offset || null }), replace);
  }

  #onAny = (ev: Event) => {
    window.clearTimeout(this.#timer);
    this.#go(true, 0, (ev.target as HTMLInputElement).value === 'any');
  };

  #onInput = (ev: Event) => {
    const t = ev.target as HTMLInputElement;
    if (t.id === 'search-q') this.qText = t.value;
    else this.siteText = t.value;
    // Search as you type, without one history entry per keystroke.
    window.clearTimeout(this.#timer);
    this.#timer = window.setTimeout(() => this.#go(true), 300);
  };

  #onSubmit = (ev: Event) => {
    ev.preventDefault();
    window.clearTimeout(this.#timer);
    this.#go(false);
  };

  /** filterSite sets (or, for the site already chosen, clears) the site filter from the facet. */
  #filterSite(site: string): void {
    this.siteText = this.site === site ? '' : site;
    window.clearTimeout(this.#timer);
    this.#go(false);
  }

  #renderFacets() {
    const r = this.#result.value;
    const facets = r?.facets ?? [];
    if (!this.q.trim() || !r) return nothing;
    const max = facets.reduce((m, f) => Math.max(m, f.count), 0);
    return html`<aside class="panel facet-panel" aria-label="Results by site">
      <h2>By site <span class="count">${facets.length ? `top ${int(facets.length)}` : ''}</span></h2>
      ${facets.length === 0
        ? html`<p class="empty small">No site.</p>`
        : html`<ul class="facets">
            ${facets.map(
              (f) => html`<li>
                <button type="button" class="facet ${f.site === this.site ? 'on' : ''}" data-facet-site=${f.site}
                  aria-pressed=${f.site === this.site ? 'true' : 'false'}
                  title=${f.site === this.site ? `Show every site again` : `Only the pages of ${f.site}`} @click=${() => this.#filterSite(f.site)}>
                  <span class="facet-site">${f.site}</span>
                  <span class="facet-bar"><span style="width:${max ? (f.count / max) * 100 : 0}%"></span></span>
                  <span class="facet-count">${int(f.count)}</span>
                </button>
              </li>`,
            )}
          </ul>`}
      ${this.site
        ? html`<button type="button" class="btn small-btn facet-clear" @click=${() => this.#filterSite(this.site)}>All sites</button>`
        : nothing}
      <p class="muted small facet-tip">In the query: <code>site:NAME</code> keeps one site, <code>-site:NAME</code> leaves it out,
        <code>"a phrase"</code> matches words in order.</p>
    </aside>`;
  }

  /** renderAdvice offers, for a query that found nothing, the wider queries that fit it: each a link. */
  #renderAdvice() {
    const tips = noMatchAdvice(this.q, this.site, this.anyWord);
    if (tips.length === 0) return nothing;
    const to = (t: Advice) => href('/search', { q: t.q, site: t.site, any: t.any ? 1 : undefined });
    return html`<ul class="search-advice" id="search-advice">
      ${tips.map((t) => html`<li data-advice=${t.kind}>${t.why}: try <a href=${to(t)}>${t.label}</a></li>`)}
    </ul>`;
  }

  #renderResults() {
    const r = this.#result.value;
    if (!this.q.trim()) {
      return html`<p class="empty big">Type words to search the titles and text of every crawled page.</p>`;
    }
    if (!r) return nothing;
    const hits = r.hits ?? [];
    if (hits.length === 0) {
      return html`<p class="empty big" id="search-empty">No page matches “${this.q}”${this.site ? html` on ${this.site}` : nothing}.</p>
        ${this.#renderAdvice()}`;
    }
    return html`<ol class="hits" start=${this.offset + 1}>
      ${hits.map(
        (h) => html`<li class="hit" data-url=${h.url}>
          <div class="hit-head">
            <a class="hit-title" href=${h.url} target="_blank" rel="noopener noreferrer" lang=${h.language || nothing}>${h.title || h.url}</a>
            <span class="score" data-relevance=${h.relevance ?? ''}
              title="Relevance: how well the page matches, as 0–100 of the best match of this query (raw score ${h.score.toFixed(3)})">${h.relevance ?? h.score.toFixed(2)}</span>
          </div>
          <div class="hit-meta">
            <a class="chip" href=${siteHref(h.site)} title="Open site">${h.site}</a>
            <span class="hit-url" title=${h.url}>${h.url}</span>
            ${h.language ? html`<span class="hit-lang muted small" data-lang=${h.language} title="Language of the page's main text, as searched">${h.language}</span>` : nothing}
          </div>
          ${h.snippet ? html`<p class="snippet" lang=${h.language || nothing}>${unsafeHTML(snippetHTML(h.snippet))}</p>` : nothing}
        </li>`,
      )}
    </ol>`;
  }

  /** renderHelp lists the query syntax, open while nothing is searched. */
  #renderHelp() {
    return html`<details class="panel search-help" id="search-help" ?open=${!this.q.trim() || this.#problem?.problem === 'syntax'}>
      <summary>How to write a query</summary>
      <table class="data syntax-table">
        <thead><tr><th scope="col">Operator</th><th scope="col">Example</th><th scope="col">Finds</th></tr></thead>
        <tbody>
          ${SYNTAX.map((x) => html`<tr><td><code>${x.op}</code></td><td><code>${x.example}</code></td><td>${x.meaning}</td></tr>`)}
        </tbody>
      </table>
      <p class="muted small">Very common words (the, of, and…) are left out; a query of only such words finds nothing and says so.
        Letters are matched without case; English endings are folded (avocados finds avocado).</p>
    </details>`;
  }

  override render() {
    const r = this.#result.value;
    const total = r?.total ?? 0;
    const count = r?.hits?.length ?? 0;
    const from = count ? this.offset + 1 : 0;
    const to = this.offset + count;
    return html`
      <form class="toolbar search-form" role="search" @submit=${this.#onSubmit}>
        <h1>Search</h1>
        <label class="search-box wide">
          <span class="sr-only">Search pages</span>
          <input id="search-q" type="search" name="q" placeholder="Search page text…  (press / anywhere)" autocomplete="off"
            .value=${this.qText} @input=${this.#onInput} />
        </label>
        <label class="search-box">
          <span class="sr-only">Only this site</span>
          <input id="search-site" type="search" name="site" placeholder="Site (optional)" autocomplete="off"
            .value=${this.siteText} @input=${this.#onInput} />
        </label>
        <span class="any-toggle" role="radiogroup" aria-label="Words required">
          <label class="opt ${this.anyWord ? '' : 'on'}" title="Pages with every word (AND)">
            <input type="radio" name="any" id="search-all" value="all" .checked=${!this.anyWord} @change=${this.#onAny} />All words</label>
          <label class="opt ${this.anyWord ? 'on' : ''}" title="Pages with any of the words (OR)">
            <input type="radio" name="any" id="search-any" value="any" .checked=${this.anyWord} @change=${this.#onAny} />Any word</label>
        </span>
        <button type="submit" class="btn primary">Search</button>
        ${spinner(this.#result.loading, 'Searching')}
      </form>
      <ss-explainer .text=${EXPLAIN.search}></ss-explainer>
      ${this.#result.error
        ? html`<div class="search-problem" id="search-problem" data-problem=${this.#problem?.problem ?? ''}
            data-position=${this.#problem?.position ?? ''}>${alertBox(this.#result.error)}</div>`
        : nothing}
      ${r?.ignored?.length
        ? html`<p class="muted search-ignored" id="search-ignored">Left out as too common to search for:
            ${r.ignored.map((w) => html`<code>${w}</code> `)}</p>`
        : nothing}
      ${r && count
        ? html`<div class="result-bar">
            <span class="range">${from}–${to} of ${int(total)} pages</span>
            <span class="muted">${r.took_ms >= 10 ? Math.round(r.took_ms) : r.took_ms.toFixed(1)} ms</span>
            <div class="spacer"></div>
            <div class="pager">
              <button type="button" class="btn" ?disabled=${this.offset === 0}
                @click=${() => this.#go(false, Math.max(0, this.offset - PAGE_SIZE))}>‹ Prev</button>
              <button type="button" class="btn" ?disabled=${to >= total}
                @click=${() => this.#go(false, this.offset + PAGE_SIZE)}>Next ›</button>
            </div>
          </div>`
        : nothing}
      ${this.#result.error && !r
        ? nothing
        : html`<div class="search-layout ${this.q.trim() && r ? 'with-facets' : ''}">
            <div class="panel results-panel">${this.#renderResults()}</div>
            ${this.#renderFacets()}
          </div>`}
      ${this.#renderHelp()}
    `;
  }
}

customElements.define('ss-search', SearchView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-search': SearchView;
  }
}
