// The crawl form's Scope group: which URLs a crawl fetches, measured from its
// seeds (Browsertrix's and Heritrix's scopes), how far it may stray out of it
// or away from a seed, and the URLs it fetches or leaves whatever the scope.

import { html, nothing } from 'lit';
import type { CrawlRequest, CrawlScope } from './api';
import './crawl-scope.css';

/** ScopeForm is the Scope group's part of the crawl form, as typed (it is kept in localStorage with the form). */
export interface ScopeForm {
  scope: CrawlScope;
  max_hops: string;
  max_depth: string;
  include: string;
  exclude: string;
}

/** DEFAULT_SCOPE is what the server does when the request says nothing: none of it is sent. */
export const DEFAULT_SCOPE: ScopeForm = { scope: 'any', max_hops: '0', max_depth: '0', include: '', exclude: '' };

/** SCOPES are the choices, from the widest, each with a one-line explanation. */
export const SCOPES: { value: CrawlScope; label: string }[] = [
  { value: 'any', label: 'Any — follow links anywhere' },
  { value: 'domain', label: "Domain — on a seed's registered domain (*.example.org)" },
  { value: 'host', label: "Host — on a seed's host name only" },
  { value: 'prefix', label: "Prefix — under a seed's directory (/docs/…)" },
  { value: 'page', label: 'Page — the seeds alone' },
];

export function isScope(s: unknown): s is CrawlScope {
  return SCOPES.some((o) => o.value === s);
}

/** ExprField names the textarea an expression came from. */
export type ExprField = 'include' | 'exclude';

/** expressionList reads a textarea of expressions: one a line, empty lines ignored. */
export function expressionList(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/**
 * scopeRequest is the part of a crawl request the group asks for, defaults
 * left out so the server applies its own; or the message of a bad number.
 */
export function scopeRequest(f: ScopeForm): Partial<CrawlRequest> | string {
  const req: Partial<CrawlRequest> = {};
  if (f.scope !== 'any') req.scope = f.scope;
  for (const [key, label] of [
    ['max_hops', 'Max hops'],
    ['max_depth', 'Max depth'],
  ] as const) {
    const raw = f[key].trim();
    const n = Number(raw || '0');
    if (!Number.isInteger(n) || n < 0) return `${label} must be a whole number ≥ 0.`;
    if (n > 0) req[key] = n;
  }
  for (const key of ['include', 'exclude'] as const) {
    const list = expressionList(f[key]);
    if (list.length) req[key] = list;
  }
  return req;
}

/**
 * expressionFieldOf says which textarea a refusal is about: none unless the
 * message names include or exclude; then the field holding the expression it
 * quotes (the server quotes it as Go's %q does, which JSON matches for the
 * usual expressions), else the one it names, include when it names both.
 */
export function expressionFieldOf(msg: string, f: ScopeForm): ExprField | null {
  const names = msg.match(/\b(include|exclude)\b/gi)?.map((w) => w.toLowerCase()) ?? [];
  if (names.length === 0) return null;
  const quoted = (key: ExprField) => expressionList(f[key]).some((e) => msg.includes(JSON.stringify(e)));
  if (quoted('include')) return 'include';
  if (quoted('exclude')) return 'exclude';
  return names.includes('include') ? 'include' : 'exclude';
}

type FieldHandler = (name: keyof ScopeForm) => (ev: Event) => void;

/** scopeGroup renders the group; errors holds a refusal shown at its textarea. */
export function scopeGroup(f: ScopeForm, onField: FieldHandler, errors: Partial<Record<ExprField, string>>) {
  const expr = (key: ExprField, label: string, hint: string, placeholder: string) => {
    const err = errors[key];
    return html`<label class="field">
        <span>${label} <span class="muted">${hint}</span></span>
        <textarea id="crawl-${key}" rows="2" spellcheck="false" placeholder=${placeholder} aria-invalid=${err ? 'true' : 'false'}
          .value=${f[key]} @input=${onField(key)}></textarea>
      </label>
      ${err ? html`<div class="alert expr-error" id="crawl-${key}-error" role="alert">${err}</div>` : nothing}`;
  };
  return html`<fieldset class="scope-group" id="crawl-scope-group">
    <legend>Scope</legend>
    <label class="field">
      <span>Fetch</span>
      <select id="crawl-scope" .value=${f.scope} @change=${onField('scope')}>
        ${SCOPES.map((s) => html`<option value=${s.value} ?selected=${s.value === f.scope}>${s.label}</option>`)}
      </select>
    </label>
    <div class="field-row">
      <label class="field" title="Links out of the scope are still fetched up to this many links from a page in it">
        <span>Max hops <span class="muted">(out of scope)</span></span>
        <input id="crawl-max-hops" type="number" min="0" .value=${f.max_hops} @input=${onField('max_hops')} />
      </label>
      <label class="field" title="Links followed from a seed: the seeds are at depth 0">
        <span>Max depth <span class="muted">(0 = no limit)</span></span>
        <input id="crawl-max-depth" type="number" min="0" .value=${f.max_depth} @input=${onField('max_depth')} />
      </label>
    </div>
    ${expr('include', 'Include', '(one expression a line: fetched whatever the scope)', 'e.g. ^https?://cdn\\.example\\.org/')}
    ${expr('exclude', 'Exclude', '(never fetched; wins over include)', 'e.g. /login|\\?sessionid=')}
  </fieldset>`;
}
