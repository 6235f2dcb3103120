// ss-selection: the selection workflow's lists — the approved, nominated,
// rejected and reopened sites (GET /api/selection?status=), with who
// nominated and approved each and when, who rejected it, when and why,
// subject and note; the next step for each (approve a nomination — by
// another librarian than its nominator unless the project allows
// single-person approval —, reject with a reason, reopen), and whether an
// approved site is handed to crawlers as its whole site (the default) or
// as its seed page only. The approved sites are exported from the Export
// page.

import { html, nothing } from 'lit';
import { api, message, SELECTION_STATUSES, type SelectedSeed, type SelectionStatus } from './api';
import { LightElement } from './base';
import { EXPLAIN, RawController, rawSharesOn } from './explainer';
import { int, rank, score, share } from './format';
import './rating-legend';
import { alertBox, Loader, spinner } from './loader';
import { href, navigate, siteHref } from './router';
import { advanceLabel, advanceTo, offered, scopeOffered, statusBadge, workflow } from './selection-ui';
import { librarian } from './state';
import './selection-view.css';

/** TABS are the lists in workflow order; "candidate" lists only the reopened sites and those with a note. */
const TABS: { status: SelectionStatus; label: string; empty: string }[] = [
  { status: 'approved', label: 'Approved', empty: 'No site is approved yet. Nominate sites in the review queue (key a), then approve them.' },
  { status: 'nominated', label: 'Nominated', empty: 'No site is waiting for approval.' },
  { status: 'rejected', label: 'Rejected', empty: 'No site was rejected.' },
  { status: 'candidate', label: 'Reopened', empty: 'No site was reopened or given a note while a candidate.' },
];

type Lists = Partial<Record<SelectionStatus, SelectedSeed[]>>;

export class SelectionView extends LightElement {
  static override properties = {
    params: { attribute: false },
    actionError: { state: true },
    copied: { state: true },
    rejecting: { state: true },
  };

  declare params: URLSearchParams;
  declare actionError: string;
  declare copied: string;
  /** rejecting is the site whose rejection reason is being asked for, '' for none. */
  declare rejecting: string;

  /** lists are the sites of each tab, fetched together: the tabs show their counts. */
  #lists = new Loader<Lists>(this, {});
  /** rawShares re-renders the page when the raw shares are shown or hidden. */
  protected readonly rawShares = new RawController(this);

  constructor() {
    super();
    this.params = new URLSearchParams();
    this.actionError = '';
    this.copied = '';
    this.rejecting = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
  }

  get status(): SelectionStatus {
    const s = this.params.get('status') as SelectionStatus | null;
    return s && SELECTION_STATUSES.includes(s) ? s : 'approved';
  }

  #load(): Promise<unknown> {
    return this.#lists.run(async (signal) => {
      // Four small lists: the tabs show their counts.
      const all = await Promise.all(TABS.map((t) => api.selection(t.status, signal)));
      const lists: Lists = {};
      TABS.forEach((t, i) => (lists[t.status] = all[i] ?? []));
      return lists;
    });
  }

  get #all(): Lists {
    return this.#lists.value ?? {};
  }

  async #move(s: SelectedSeed, to: SelectionStatus, reason?: string): Promise<void> {
    const name = await librarian.require();
    if (!name) return;
    try {
      await api.setSelection(s.site, { librarian: name, status: to, reason });
      this.actionError = '';
      this.rejecting = '';
      await this.#load();
    } catch (err) {
      this.actionError = `${s.site}: ${message(err)}`;
    }
  }

  /** pageOnly marks the seed of the approved site s as its page only (on) or its whole site. */
  async #pageOnly(s: SelectedSeed, on: boolean): Promise<void> {
    const name = await librarian.require();
    if (!name) {
      this.requestUpdate();
      return;
    }
    try {
      await api.setSelection(s.site, { librarian: name, status: 'approved', page_only: on });
      this.actionError = '';
    } catch (err) {
      this.actionError = `${s.site}: ${message(err)}`;
    }
    await this.#load();
  }

  async #copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.copied = 'Copied.';
    } catch {
      const pre = this.querySelector('pre.selection-seeds');
      if (pre) window.getSelection()?.selectAllChildren(pre);
      this.copied = 'Clipboard unavailable — list selected, press Ctrl+C.';
    }
  }

  #renderRow(s: SelectedSeed) {
    const to = advanceTo(s.status);
    const own = to === 'approved' && s.nominated_by && s.nominated_by === librarian.name;
    return html`<tr data-site=${s.site} data-status=${s.status}>
      <td class="col-site"><a href=${siteHref(s.site)}>${s.site}</a></td>
      <td>${statusBadge(s.status)}</td>
      <td class="num col-importance" data-score=${s.opic_score ?? ''} title="Importance rank ${rank(s.opic_rank)}">${score(s.opic_score)}
        <span class="rank-of muted small">${rank(s.opic_rank)}</span>${rawSharesOn() ? html` <span class="raw-share">${share(s.opic)}</span>` : nothing}</td>
      <td>${s.subject || html`<span class="muted">–</span>`}</td>
      <td class="sel-note">${s.note || html`<span class="muted">–</span>`}</td>
      <td class="decided">${workflow(s)}</td>
      <td class="row-actions">
        ${to && offered(s.status, to, s.nominated_by)
          ? html`<button type="button" class="btn small-btn" data-action=${to} @click=${() => this.#move(s, to)}
              title=${own ? `You nominated it: two-person approval needs another librarian (a project setting allows single-person approval)` : ''}>${advanceLabel(s.status)}</button>`
          : nothing}
        ${s.status !== 'rejected' && offered(s.status, 'rejected', s.nominated_by)
          ? html`<button type="button" class="btn small-btn danger" data-action="rejected" @click=${() => {
              this.rejecting = s.site;
              void this.updateComplete.then(() => this.querySelector<HTMLInputElement>('.reject-row .reject-reason')?.focus());
            }}>Reject…</button>`
          : nothing}
        <a class="btn small-btn" href=${href('/review', { site: s.site })} title="Open it in the review queue">Review</a>
        ${s.status === 'approved'
          ? html`<label class="seed-scope small" title="Hand it to crawlers as its seed page alone (${s.seed_url}), not its whole site: no site prefix in the Heritrix seeds, the page scope in Browsertrix">
              <input type="checkbox" data-action="page-only" .checked=${s.page_only} ?disabled=${!scopeOffered()}
                @change=${(ev: Event) => void this.#pageOnly(s, (ev.currentTarget as HTMLInputElement).checked)} /> Seed page only</label>`
          : nothing}
      </td>
    </tr>${this.rejecting === s.site ? this.#renderReject(s) : nothing}`;
  }

  /**
   * renderReject asks why a site is rejected in a row of its own under the
   * site's, across the whole table: in the row's last cell it widened the
   * table past the panel at 1280 px, cutting the site names and the buttons.
   */
  #renderReject(s: SelectedSeed) {
    return html`<tr class="reject-row" data-reject-for=${s.site}>
      <td colspan="7">
        <form class="reject-form" @submit=${(ev: Event) => {
          ev.preventDefault();
          const why = (ev.currentTarget as HTMLFormElement).querySelector<HTMLInputElement>('input')?.value.trim() ?? '';
          void this.#move(s, 'rejected', why);
        }}>
          <span class="small">Reject <strong>${s.site}</strong>:</span>
          <input class="reject-reason" placeholder="Why? (kept with the rejection)" aria-label="Why is ${s.site} rejected?" />
          <button type="submit" class="btn small-btn danger" data-action="confirm-reject">Reject</button>
          <button type="button" class="btn small-btn" @click=${() => (this.rejecting = '')}>Cancel</button>
        </form>
      </td>
    </tr>`;
  }

  #renderExport() {
    const approved = this.#all.approved ?? [];
    const seeds = approved.map((s) => s.seed_url).join('\n');
    const pageOnly = approved.filter((s) => s.page_only).length;
    return html`<section class="panel selection-export">
      <h2>The approved sites <span class="count">${int(approved.length)} ${approved.length === 1 ? 'site' : 'sites'}</span></h2>
      <p class="muted small">Their seed list, and the list with who nominated and approved each site and when, download from the
        <a id="selection-export-link" href=${href('/export')}>Export</a> page.</p>
      <div class="actions">
        <button type="button" class="btn" ?disabled=${!approved.length} @click=${() => this.#copy(seeds)}>Copy the URLs</button>
        ${this.copied ? html`<span class="muted small">${this.copied}</span>` : nothing}
      </div>
      ${approved.length ? html`<pre class="preview selection-seeds">${seeds}</pre>` : nothing}
      ${approved.length
        ? html`<p class="muted small" data-scope-note>The crawler files scope each seed to its whole site${pageOnly
            ? html`, but ${int(pageOnly)} ${pageOnly === 1 ? 'seed' : 'seeds'} marked “seed page only”: ${pageOnly === 1 ? 'its page' : 'their pages'} alone`
            : nothing}.</p>`
        : nothing}
    </section>`;
  }

  override render() {
    const cur = this.status;
    const tab = TABS.find((t) => t.status === cur)!;
    const lists = this.#all;
    const rows = lists[cur] ?? [];
    return html`
      <div class="toolbar">
        <h1>Selection</h1>
        <div class="segmented" role="tablist" aria-label="Selection status">
          ${TABS.map(
            (t) => html`<button type="button" role="tab" class="seg ${t.status === cur ? 'on' : ''}" data-tab=${t.status}
              aria-selected=${t.status === cur ? 'true' : 'false'}
              @click=${() => {
                this.actionError = '';
                navigate(href('/selection', { status: t.status === 'approved' ? null : t.status }), true);
              }}>
              ${t.label} <span class="tab-count">${lists[t.status] ? int(lists[t.status]!.length) : ''}</span></button>`,
          )}
        </div>
        ${spinner(this.#lists.loading)}
        <div class="spacer"></div>
        <span class="muted small">candidate → nominated → approved · any → rejected · rejected → candidate</span>
      </div>
      <ss-explainer raw .text=${EXPLAIN.importance}></ss-explainer>
      <ss-rating-legend></ss-rating-legend>
      ${alertBox(this.#lists.error)}
      ${alertBox(this.actionError)}
      <div class="selection-layout">
        <section class="panel table-panel">
          ${rows.length === 0
            ? html`<p class="empty big">${lists[cur] ? tab.empty : ''}</p>`
            : html`<table class="data selection-table" aria-label="${tab.label} sites">
                <thead><tr>
                  <th scope="col">Site</th><th scope="col">Status</th><th scope="col" class="num" title="Importance (OPIC) as 0–100 of the top site's, and its rank among all sites">Importance</th><th scope="col">Subject</th>
                  <th scope="col">Note</th><th scope="col" class="decided-h">Nominated · approved · rejected</th><th scope="col"></th>
                </tr></thead>
                <tbody>${rows.map((s) => this.#renderRow(s))}</tbody>
              </table>`}
        </section>
        ${this.#renderExport()}
      </div>
    `;
  }
}

customElements.define('ss-selection', SelectionView);

declare global {
  interface HTMLElementTagNameMap {
    'ss-selection': SelectionView;
  }
}
