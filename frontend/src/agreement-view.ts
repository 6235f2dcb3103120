// ss-agreement: how each librarian, and each computed measure, agrees with
// the librarians' reference (GET /api/agreement), said first in words (how
// far the librarians agree, the sites they rate furthest apart, how often
// the computed importance gives the team's rating), with the statistics
// explained in a help note below them; as in the experiment at
// the end of section 4 of the OPIC paper: one row per rater with the
// paper's score, the leave-one-out score, quadratic-weighted kappa and
// Spearman's correlation; the measures' quantile thresholds; one rater's
// 4×4 confusion matrix as a heat map; the biased ranking's rows on demand.
// The ratings files (import and export of librarian,site,rating,note) live
// here too, since importing is what changes the table.

import { html, nothing } from 'lit';
import {
  api,
  ApiError,
  message,
  type Agreement,
  type AgreementRow,
  type BadLine,
  type RatingsImport,
  type RatingsRefusal,
} from './api';
import { LightElement } from './base';
import { EXPLAIN, RawController, rawSharesOn } from './explainer';
import { FilePicker } from './upload';
import { int, sig } from './format';
import './rating-legend';
import { alertBox, Loader, spinner } from './loader';
import { href, navigate, siteHref } from './router';
import { librarian } from './state';
import './agreement-view.css';

/** MEASURES name the computed measures for people. */
const MEASURES: Record<string, string> = {
  opic: 'OPIC',
  pagerank: 'PageRank',
  hits_authority: 'HITS authority',
  in_sites: 'In-sites (baseline)',
  pagerank_biased: 'Biased PR (in-sample)',
  pagerank_biased_cv: 'Biased PR (cross-val.)',
  cc_harmonic: 'CC harmonic',
  cc_pagerank: 'CC PageRank',
};

function raterLabel(r: { rater: string; kind: string }): string {
  return r.kind === 'measure' ? (MEASURES[r.rater] ?? r.rater) : r.rater;
}

function pctCell(x: number | null | undefined): string {
  return x === null || x === undefined ? '–' : `${x.toFixed(1)}%`;
}

function coef(x: number | null | undefined): string {
  return x === null || x === undefined ? '–' : x.toFixed(3);
}

/** threshold formats a measure's threshold: a count (in-linking sites) as a whole number, a share with 4 digits. */
function threshold(t: number | null): string {
  if (t === null) return '–';
  return Number.isInteger(t) ? int(t) : sig(t);
}

/** NewNames is a ratings file held back because it names librarians the project does not have. */
interface NewNames {
  names: string[];
  file: { data: ArrayBuffer | string; name: string };
}

interface Refusal {
  message: string;
  lines: BadLine[];
  total: number;
}

export class AgreementView extends LightElement {
  static override properties = {
    params: { attribute: false },
    librarian: { type: String },
    importing: { state: true },
    imported: { state: true },
    refusal: { state: true },
    asking: { state: true },
  };

  declare params: URLSearchParams;
  declare librarian: string;
  declare importing: boolean;
  declare imported: (RatingsImport & { name: string }) | null;
  declare refusal: Refusal | null;
  /** asking is a file that names librarians the project does not have, held until the librarian says to add them. */
  declare asking: NewNames | null;

  #report = new Loader<Agreement>(this);
  /** rawShares re-renders the page when the raw shares are shown or hidden. */
  protected readonly rawShares = new RawController(this);
  /** picker chooses the ratings file: a file input in a browser, the native Open dialog in the window. */
  #picker = new FilePicker(this, {
    id: 'ratings-file',
    accept: '.csv,text/csv,text/plain',
    title: 'Import a ratings file',
    filters: [{ name: 'Ratings files (CSV)', pattern: '*.csv;*.CSV;*.txt' }],
    changed: () => {
      this.imported = null;
      this.refusal = null;
      this.asking = null;
    },
  });

  constructor() {
    super();
    this.params = new URLSearchParams();
    this.librarian = '';
    this.importing = false;
    this.imported = null;
    this.refusal = null;
    this.asking = null;
  }

  get biased(): boolean {
    return this.params.get('biased') === '1';
  }

  get rater(): string {
    return this.params.get('rater') ?? '';
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if (!changed.has('params')) return;
    const prev = changed.get('params') as URLSearchParams | undefined;
    if (!prev || prev.toString() !== this.params.toString()) void this.#load();
  }

  /**
   * load fetches the report with the confusion matrix of the rater asked
   * for — the address's, else the current librarian, else the first
   * librarian (or measure) of the table. A rater the report does not have
   * (a biased row once the toggle is off, a librarian without ratings) falls
   * back to that default.
   */
  #load(): Promise<unknown> {
    const biased = this.biased;
    return this.#report.run(async (signal) => {
      const want = this.rater || this.librarian;
      let ag: Agreement | null = null;
      if (want) {
        try {
          ag = await api.agreement({ rater: want, biased }, signal);
        } catch (err) {
          if (!(err instanceof ApiError && err.status === 400)) throw err;
        }
      }
      if (ag?.confusion) return ag;
      const base = ag ?? (await api.agreement({ biased }, signal));
      const rows = base.rows ?? [];
      const pick = rows.find((r) => r.kind === 'librarian' && r.sites > 0) ?? rows.find((r) => r.sites > 0) ?? rows[0];
      return pick ? api.agreement({ rater: pick.rater, biased }, signal) : base;
    });
  }

  #go(changes: Record<string, string | null>): void {
    navigate(href('/agreement', { rater: this.rater || null, biased: this.biased ? '1' : null, ...changes }), true);
  }

  async #import(ev: Event): Promise<void> {
    ev.preventDefault();
    const f = this.#picker.file;
    if (f) await this.#send(f, false);
  }

  /** send imports file; one naming librarians the project does not have is held, asking, unless newLibrarians. */
  async #send(f: NewNames['file'], newLibrarians: boolean): Promise<void> {
    if (this.importing) return;
    this.importing = true;
    this.imported = null;
    this.refusal = null;
    this.asking = null;
    try {
      const res = await api.importRatings(f.data, f.name, newLibrarians);
      this.imported = { ...res, name: f.name };
      void librarian.loadProfiles();
      this.#reloaded = this.#load();
    } catch (err) {
      const data = err instanceof ApiError ? (err.data as RatingsRefusal | undefined) : undefined;
      if (data?.new_librarians?.length) {
        this.asking = { names: data.new_librarians, file: { data: f.data, name: f.name } };
      } else {
        this.refusal = {
          message: message(err),
          lines: data?.bad_lines ?? [],
          total: data?.total_bad ?? 0,
        };
      }
    } finally {
      this.importing = false;
    }
    if (this.asking) {
      // Return adds them: the button has the focus (enabled once importing is over), in the window as in a browser.
      await this.updateComplete;
      this.querySelector<HTMLButtonElement>('#ratings-import-new')?.focus();
      return;
    }
    // The answer is read where it is: the table read again after an import can draw the heat map above the form,
    // which pushed the answer below the window's edge, so nothing seemed to happen after the click.
    await this.#reloaded;
    await this.updateComplete;
    this.querySelector('.ratings-files .import-ok, .ratings-files .import-refused')?.scrollIntoView({ block: 'nearest' });
  }

  /** reloaded settles once the table read again after the last import is drawn. */
  #reloaded: Promise<unknown> = Promise.resolve();

  // ---------- rendering ----------

  #renderSummary(d: Agreement) {
    return html`<p class="agreement-summary" data-reference=${d.reference_sites} data-excluded=${d.excluded}>
      <strong>${int(d.librarians)}</strong> ${d.librarians === 1 ? 'librarian' : 'librarians'} ·
      <strong>${int(d.rated_sites)}</strong> rated ${d.rated_sites === 1 ? 'site' : 'sites'} ·
      <strong>${int(d.reference_sites)}</strong> with a reference (rated by two or more) ·
      <span class=${d.excluded ? 'excluded' : ''}><strong>${int(d.excluded)}</strong> excluded: rated by a single librarian</span>
    </p>`;
  }

  /**
   * renderPlain says first, in words, what the table's figures mean for the
   * team: how far the librarians agree (each one's leave-one-out score),
   * which sites they rate furthest apart, how often the computed importance
   * (OPIC) gives the team's rating next to the librarians' own scores, and
   * what the sites rated once wait for. Every number in it is one of the
   * answer's, as the table shows it.
   */
  #renderPlain(d: Agreement) {
    const rows = d.rows ?? [];
    const libs = rows.filter((r) => r.kind === 'librarian' && r.sites > 0);
    const said = [];
    const loo = libs.filter((r) => r.score_loo_pct !== null && r.score_loo_pct !== undefined) as (AgreementRow & { score_loo_pct: number })[];
    if (d.reference_sites > 0 && loo.length) {
      const lo = loo.reduce((a, b) => (b.score_loo_pct < a.score_loo_pct ? b : a));
      const hi = loo.reduce((a, b) => (b.score_loo_pct > a.score_loo_pct ? b : a));
      const mean = loo.reduce((a, r) => a + r.score_loo_pct, 0) / loo.length;
      // "Most" as in more than half: the mean of their leave-one-out scores.
      const how = mean > 50 ? 'agree on most sites' : mean === 50 ? 'agree on half of the sites' : 'agree on fewer than half of the sites';
      const range =
        lo === hi
          ? html`<strong>${pctCell(lo.score_loo_pct)}</strong>`
          : html`between <strong>${pctCell(lo.score_loo_pct)}</strong> (${lo.rater}) and <strong>${pctCell(hi.score_loo_pct)}</strong> (${hi.rater})`;
      said.push(html`<li data-says="raters" data-mean=${mean.toFixed(1)}>Your ${int(loo.length)} librarians ${how}: each gives the
        same rating as the others' average on ${range} of the ${int(d.reference_sites)} sites two or more of them rated.</li>`);
    }
    const disputed = d.disputed ?? [];
    if (d.reference_sites > 0) {
      said.push(
        disputed.length
          ? html`<li data-says="disputed">They disagree most on ${disputed.map(
              (x, i) => html`${i === 0 ? '' : i === disputed.length - 1 ? ' and ' : ', '}<a href=${siteHref(x.site)} data-disputed=${x.site}
                >${x.site}</a> (rated ${x.low} to ${x.high} by ${x.raters} librarians)`,
            )}: the sites to talk over first.</li>`
          : html`<li data-says="disputed">No site is rated more than one step apart by your librarians.</li>`,
      );
    }
    const opic = rows.find((r) => r.kind === 'measure' && r.rater === 'opic');
    const scored = libs.filter((r) => r.score_pct !== null) as (AgreementRow & { score_pct: number })[];
    if (opic && opic.score_pct !== null && !opic.all_tied && !d.measures_tied && scored.length) {
      const lo = Math.min(...scored.map((r) => r.score_pct));
      const hi = Math.max(...scored.map((r) => r.score_pct));
      const span = lo === hi ? pctCell(lo) : `${pctCell(lo)}–${pctCell(hi)}`;
      const than =
        opic.score_pct > hi
          ? html`more often than any of your librarians (${span}): its order in the review queue is a fair first guide`
          : opic.score_pct < lo
            ? html`less often than any of your librarians (${span}): rate each site on what it holds, not on its rank`
            : html`within the range of your librarians (${span})`;
      said.push(html`<li data-says="importance" data-score=${opic.score_pct}>The computed importance gives your team's rating to
        <strong>${pctCell(opic.score_pct)}</strong> of the ${int(opic.sites)} sites, ${than}.</li>`);
    }
    if (d.excluded > 0) {
      said.push(html`<li data-says="single">${int(d.excluded)} ${d.excluded === 1 ? 'site is' : 'sites are'} rated by a single
        librarian and ${d.excluded === 1 ? 'does' : 'do'} not count yet: a second librarian's rating brings ${d.excluded === 1 ? 'it' : 'them'} in.</li>`);
    }
    return html`<section class="panel agreement-plain" id="agreement-plain">
      <h2>What your ratings say</h2>
      ${said.length
        ? html`<ul class="plain-says">${said}</ul>`
        : html`<p class="muted">Nothing yet: a site counts once two librarians have rated it. Rate in the
            <a href="#/review">review queue</a> under two names, or import their ratings files below.</p>`}
      <details class="agreement-help" id="agreement-help">
        <summary>What the figures below mean</summary>
        <ss-explainer raw .text=${EXPLAIN.agreement}></ss-explainer>
        <p class="small">
          <strong>Reference</strong>: the mean of all librarians' ratings of a site, rounded half up.
          <strong>Score</strong>: the share of sites whose rating (for a measure, its 1–4 rank) equals the reference.
          <strong>LOO</strong> (leave-one-out): a librarian's score against the mean of the other librarians only, so that no one is
          compared with themselves. <strong>κw</strong>: Cohen's kappa with quadratic weights, which counts a rating one step off as
          nearly right and corrects for chance. <strong>Spearman</strong>: the rank correlation with the mean rating (1: the same
          order). <strong>Thresholds</strong>: a measure becomes a 1–4 rank by quantiles that match the distribution of the
          reference ranks over the same sites; they are its least values ranked 2, 3 and 4. Click a row for its confusion matrix.
        </p>
        <p class="small" id="agreement-paper">
          This is the experiment at the end of section 4 of the OPIC paper, where librarians agreed with the reference on
          60–80% of the sites and OPIC on 65%.
        </p>
      </details>
    </section>`;
  }

  #renderRow(r: AgreementRow, selected: string) {
    const sc = r.score_pct;
    const th = r.thresholds ?? [];
    const thScores = r.threshold_scores ?? [];
    return html`<tr data-rater=${r.rater} data-kind=${r.kind} class="${r.rater === selected ? 'selected' : ''} ${r.rater === this.librarian && r.kind === 'librarian' ? 'me' : ''}"
      @click=${() => this.#go({ rater: r.rater })} title="Show the confusion matrix of ${raterLabel(r)}">
      <td class="rater" title=${r.kind === 'measure' ? `${raterLabel(r)} (${r.rater})` : r.rater}>${raterLabel(r)}</td>
      <td><span class="kind kind-${r.kind}">${r.kind}</span></td>
      <td class="num">${int(r.sites)}</td>
      <td class="num col-score" data-col="score">
        <span class="bar-cell"><span class="bar" style="width:${sc === null ? 0 : Math.max(0, Math.min(100, sc))}%"></span></span><span class="v">${pctCell(sc)}</span>
      </td>
      <td class="num" data-col="loo">${r.kind === 'measure' ? html`<span class="muted">n/a</span>` : pctCell(r.score_loo_pct)}</td>
      ${r.all_tied
        ? html`<td class="muted small all-tied" data-col="kappa" colspan="2"
            title="Its values are equal, to within a relative 1e-9, over every rated site: it ranks them all alike, and a kappa or correlation would say nothing of it">cannot tell the rated sites apart</td>`
        : html`<td class="num" data-col="kappa">${coef(r.kappa_w)}</td>
            <td class="num" data-col="spearman">${coef(r.spearman)}</td>`}
      <td class="thresholds" data-col="thresholds">${r.kind === 'measure'
        ? th.map((t, i) => {
            // A 0–100 score where the server gives one (the top site = 100), the raw value on demand or else.
            const sc = thScores.length === th.length && t !== null ? thScores[i] : undefined;
            return html`<span class="th" data-score=${sc ?? ''} title="least value ranked ${i + 2}: ${threshold(t)}${sc !== undefined ? `, ${sc} of 100` : ''}">${
              sc === undefined || rawSharesOn() ? threshold(t) : sc}</span>`;
          })
        : nothing}</td>
    </tr>`;
  }

  #renderBiasNote(d: Agreement) {
    if (!this.biased || d.bias === undefined) return nothing;
    const rows = d.rows ?? [];
    const pr = rows.find((r) => r.rater === 'pagerank');
    const bi = rows.find((r) => r.rater === 'pagerank_biased');
    const cv = rows.find((r) => r.rater === 'pagerank_biased_cv');
    const delta = (x: AgreementRow | undefined) =>
      x && pr && x.score_pct !== null && pr.score_pct !== null
        ? `${x.score_pct - pr.score_pct >= 0 ? '+' : ''}${(x.score_pct - pr.score_pct).toFixed(1)} points`
        : '–';
    return html`<p class="bias-note muted small">
      Biased PageRank: the teleport goes to every site with weight 1, plus ${d.bias} for the ${int(d.favoured ?? 0)}
      ${d.favoured === 1 ? 'site' : 'sites'} of mean rating 3 or more. Against plain PageRank:
      <strong>${delta(bi)}</strong> in-sample (scored on the very ratings it was biased with, so it flatters itself),
      <strong>${delta(cv)}</strong> cross-validated (each site's value from the ratings of the other folds) — the honest figure.
    </p>`;
  }

  /** renderComparisons sets Common Crawl's ranks beside sitesift's, when the project has them. */
  #renderComparisons(d: Agreement) {
    const cs = d.comparisons ?? [];
    if (cs.length === 0) return nothing;
    const label = (m: string) => MEASURES[m] ?? m;
    return html`<section class="panel cc-comparisons">
      <h2>Common Crawl beside sitesift</h2>
      <p class="muted small">
        How far Common Crawl's ranks of the imported slice order its sites as sitesift's measures do, over every site that has
        them, rated or not: rank correlations (1: the same order, 0: unrelated, −1: reversed) and the share of Common Crawl's top
        sites that are also among sitesift's.
      </p>
      <table class="data comparisons-table" aria-label="Common Crawl's ranks beside sitesift's">
        <thead><tr>
          <th scope="col">Common Crawl</th>
          <th scope="col">sitesift</th>
          <th scope="col" class="num" title="Sites that have both values">Sites</th>
          <th scope="col" class="num" title="Spearman's rank correlation">Spearman</th>
          <th scope="col" class="num" title="Kendall's tau-b">Kendall τ</th>
          <th scope="col" class="num" title="The share of Common Crawl's top k sites that are also among sitesift's top k">Top-k overlap</th>
        </tr></thead>
        <tbody>${cs.map(
          (c) => html`<tr data-measure=${c.measure} data-with=${c.with}>
            <td>${label(c.measure)}</td>
            <td>${label(c.with)}</td>
            <td class="num">${int(c.sites)}</td>
            <td class="num" data-col="spearman">${coef(c.spearman)}</td>
            <td class="num" data-col="kendall">${coef(c.kendall_tau)}</td>
            <td class="num" data-col="overlap">${pctCell(c.top_k_overlap_pct)} <span class="muted small">of ${int(c.top_k)}</span></td>
          </tr>`,
        )}</tbody>
      </table>
    </section>`;
  }

  #renderHeatmap(d: Agreement) {
    const c = d.confusion;
    const rows = d.rows ?? [];
    const selected = c?.rater ?? '';
    const m = c?.matrix ?? [];
    const max = Math.max(0, ...m.flat());
    const total = m.flat().reduce((a, b) => a + b, 0);
    const diag = m.reduce((a, row, i) => a + (row[i] ?? 0), 0);
    const label = c ? raterLabel(c) : '';
    return html`<section class="panel heatmap-panel">
      <h2>Confusion matrix</h2>
      <label class="field">
        <span>Rater</span>
        <select id="agreement-rater" .value=${selected} @change=${(e: Event) => this.#go({ rater: (e.target as HTMLSelectElement).value })}>
          <optgroup label="Librarians">
            ${rows.filter((r) => r.kind === 'librarian').map((r) => html`<option value=${r.rater} ?selected=${r.rater === selected}>${r.rater}</option>`)}
          </optgroup>
          <optgroup label="Measures">
            ${rows.filter((r) => r.kind === 'measure').map((r) => html`<option value=${r.rater} ?selected=${r.rater === selected}>${raterLabel(r)}</option>`)}
          </optgroup>
        </select>
      </label>
      ${!c
        ? html`<p class="empty">No rater to show.</p>`
        : total === 0
          ? html`<p class="empty" data-heatmap-empty>No site has a reference yet: the matrix needs sites rated by two librarians or more.</p>`
        : html`<div class="heatmap" role="table" aria-label="Reference rank (rows) by ${label}'s rank (columns)" data-rater=${c.rater}>
              <div class="hm-axis-x" role="presentation">${label}'s rank →</div>
              <div class="hm-grid">
                <div class="hm-corner" role="columnheader">ref ↓</div>
                ${[1, 2, 3, 4].map((j) => html`<div class="hm-head" role="columnheader">${j}</div>`)}
                ${m.map(
                  (row, i) => html`<div class="hm-head row" role="rowheader">${i + 1}</div>
                    ${row.map((n, j) => {
                      const a = max > 0 ? n / max : 0;
                      const bg = n === 0 ? 'var(--subtle)' : `rgba(47, 95, 208, ${(0.08 + 0.92 * a).toFixed(3)})`;
                      return html`<div class="hm-cell ${i === j ? 'diag' : ''} ${a > 0.55 ? 'dark' : ''}" role="cell"
                        data-ref=${i + 1} data-rank=${j + 1} data-count=${n} style="background:${bg}"
                        title="${n} ${n === 1 ? 'site' : 'sites'} of reference rank ${i + 1} ranked ${j + 1} by ${label}">${n}</div>`;
                    })}`,
                )}
              </div>
            </div>
            <p class="muted small">${int(diag)} of ${int(total)} sites on the diagonal
              (${total ? ((100 * diag) / total).toFixed(1) : '–'}%, the score). Rows: the reference rank; columns: ${label}'s rank;
              darker means more sites.</p>`}
    </section>`;
  }

  #renderImport() {
    const ok = this.imported;
    const bad = this.refusal;
    return html`<section class="panel ratings-files">
      <h2>Ratings files</h2>
      <p class="muted small">CSV with the header <code>librarian,site,rating,note</code> (note optional): librarians working on
        different laptops merge their work. A file with any bad line is refused as a whole; importing a file twice changes nothing.</p>
      <form class="import-form" @submit=${(e: Event) => this.#import(e)}>
        ${this.#picker.render()}
        <button type="submit" id="ratings-import" class="btn primary" ?disabled=${!this.#picker.file || this.importing}>Import</button>
        ${spinner(this.importing, 'Importing')}
      </form>
      ${ok
        ? html`<div class="import-ok" role="status" data-rows=${ok.rows} data-added=${ok.added}>
            <strong>${ok.name}</strong> imported: ${int(ok.rows)} ${ok.rows === 1 ? 'rating' : 'ratings'} —
            ${int(ok.added)} added, ${int(ok.changed)} changed, ${int(ok.unchanged)} unchanged${ok.new_librarians?.length
              ? html`; new ${ok.new_librarians.length === 1 ? 'librarian' : 'librarians'}: ${ok.new_librarians.join(', ')}`
              : nothing}.
          </div>`
        : nothing}
      ${this.asking
        ? html`<div class="import-ask notice" role="alert" data-new-librarians=${this.asking.names.join(',')}>
            <p><strong>${this.asking.file.name}</strong> names ${this.asking.names.length === 1 ? 'a librarian' : 'librarians'}
              this project does not have. Nothing is imported yet: add ${this.asking.names.length === 1 ? 'this profile' : 'these profiles'},
              or correct the names in the file if they are another spelling of a colleague's.</p>
            <ul class="new-librarians">${this.asking.names.map((n) => html`<li data-name=${n}>${n}</li>`)}</ul>
            <div class="actions">
              <button type="button" class="btn primary" id="ratings-import-new" ?disabled=${this.importing}
                @click=${() => this.asking && this.#send(this.asking.file, true)}>Add ${this.asking.names.length === 1 ? 'the librarian' : `the ${int(this.asking.names.length)} librarians`} and import</button>
              <button type="button" class="btn" id="ratings-import-cancel" @click=${() => (this.asking = null)}>Cancel</button>
            </div>
          </div>`
        : nothing}
      ${bad
        ? html`<div class="import-refused alert" role="alert" data-total-bad=${bad.total}>
            <p class="refusal-message">${bad.lines.length
              ? html`Refused, nothing imported: ${int(bad.total)} bad ${bad.total === 1 ? 'line' : 'lines'}.`
              : bad.message}</p>
            ${bad.lines.length
              ? html`<table class="data compact bad-lines">
                  <thead><tr><th scope="col" class="num">Line</th><th scope="col">What is wrong</th></tr></thead>
                  <tbody>${bad.lines.map(
                    (l) => html`<tr data-line=${l.line}><td class="num">line ${l.line}</td><td>${l.error}</td></tr>`,
                  )}</tbody>
                </table>
                ${bad.total > bad.lines.length
                  ? html`<p class="small">… and ${int(bad.total - bad.lines.length)} more: the first ${int(bad.lines.length)} are listed.</p>`
                  : nothing}`
              : nothing}
          </div>`
        : nothing}
      <h3>Export</h3>
      <p class="other-exports small"><a id="ratings-export" href="#/export">The Export page</a> has the ratings file this form imports
        and the sites table with each librarian's rating beside every site.</p>
    </section>`;
  }

  override render() {
    const d = this.#report.value;
    const rows = d?.rows ?? [];
    const selected = d?.confusion?.rater ?? '';
    const libs = rows.filter((r) => r.kind === 'librarian');
    return html`
      <div class="toolbar">
        <h1>Agreement</h1>
        <label class="check" title="Add the rows of PageRank biased towards the sites rated 3–4">
          <input id="agreement-biased" type="checkbox" .checked=${this.biased}
            @change=${(e: Event) => this.#go({ biased: (e.target as HTMLInputElement).checked ? '1' : null })} />
          Show the biased ranking
        </label>
        ${spinner(this.#report.loading)}
        <div class="spacer"></div>
      </div>
      ${alertBox(this.#report.error)}
      ${d ? this.#renderPlain(d) : nothing}
      <ss-rating-legend></ss-rating-legend>
      <div class="agreement-layout">
        <div class="agreement-main">
          <section class="panel table-panel">
            ${d ? this.#renderSummary(d) : nothing}
            ${d?.measures_tied
              ? html`<p class="notice agreement-tied" id="agreement-measures-tied" role="status"><strong>The measures cannot tell these
                  sites apart:</strong> every rated site has the same value of each, so their scores say nothing of the measures.
                  Rate sites that differ in their links.</p>`
              : nothing}
            ${d && libs.length < 2
              ? html`<p class="empty agreement-hint">A reference needs sites rated by at least two librarians: rate in the
                  <a href="#/review">review queue</a> under two names, or import their ratings files.</p>`
              : nothing}
            <table class="data agreement-table" aria-label="Agreement with the reference">
              <thead><tr>
                <th scope="col">Rater</th>
                <th scope="col">Kind</th>
                <th scope="col" class="num" title="Sites both the rater and the reference rank">Sites</th>
                <th scope="col" class="num" title="The paper's score: the share of sites whose rank equals the reference (mean rating rounded half up)">Score</th>
                <th scope="col" class="num" title="Leave-one-out: the score against the mean of the other librarians only, so a librarian is not compared with itself">LOO</th>
                <th scope="col" class="num" title="Cohen's kappa with quadratic weights against the reference">κw</th>
                <th scope="col" class="num" title="Spearman's rank correlation with the mean rating">Spearman</th>
                <th scope="col" title="A measure's least values ranked 2, 3 and 4: quantiles matching the reference's distribution">Thresholds</th>
              </tr></thead>
              <tbody>${rows.map((r) => this.#renderRow(r, selected))}</tbody>
            </table>
          </section>
          ${d ? this.#renderBiasNote(d) : nothing}
          ${d ? this.#renderComparisons(d) : nothing}
        </div>
        <div class="agreement-side">
          ${d ? this.#renderHeatmap(d) : nothing}
          ${this.#renderImport()}
        </div>
      </div>
    `;
  }
}

customElements.define('ss-agreement', AgreementView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-agreement': AgreementView;
  }
}
