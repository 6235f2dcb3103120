// The selection workflow as the pages show it: the status badge and the
// one "advance" step the review key `a` takes. The server decides what is
// allowed (PUT /api/sites/{site}/selection answers 409 otherwise); these
// helpers only follow its transitions:
//
//	candidate → nominated → approved, any status → rejected, rejected → candidate

import { html, nothing } from 'lit';
import type { Selection, SelectionStatus } from './api';
import { date } from './format';
import { team } from './team';

/** advanceTo is where "nominate/approve" takes a site: the next step forward, or null when approved already. */
export function advanceTo(s: SelectionStatus): SelectionStatus | null {
  switch (s) {
    case 'candidate':
      return 'nominated';
    case 'nominated':
      return 'approved';
    case 'rejected':
      return 'candidate'; // reopen: a rejected site goes back to the candidates
    default:
      return null;
  }
}

/** advanceLabel names the step advanceTo takes, as on its button. */
export function advanceLabel(s: SelectionStatus): string {
  switch (s) {
    case 'candidate':
      return 'Nominate';
    case 'nominated':
      return 'Approve';
    case 'rejected':
      return 'Reopen';
    default:
      return 'Approved';
  }
}

/**
 * offered reports whether the page offers to move a site from status from
 * to status to. On a team server approving, rejecting and reopening are an
 * approver's or an admin's, and the librarian who nominated a site is not
 * offered its approval unless the project allows single-person approval
 * (docs/team.md): nominatedBy is the site's nominator, null while the page
 * does not know it yet. The server refuses them all the same: this only
 * spares a librarian a button that cannot work. A one-user sitesift offers
 * every step.
 */
export function offered(from: SelectionStatus, to: SelectionStatus, nominatedBy: string | null): boolean {
  const me = team.me;
  if (!me) return true;
  const decides = to === 'approved' || to === 'rejected' || (to === 'candidate' && from !== 'candidate');
  if (decides && me.role === 'curator') return false;
  if (to !== 'approved' || team.selfApproval) return true;
  return nominatedBy !== null && nominatedBy.toLowerCase() !== me.name.toLowerCase();
}

/**
 * scopeOffered reports whether the page offers to mark an approved site's
 * seed as its page only, or back: an approver's or an admin's on a team
 * server, as approving is.
 */
export function scopeOffered(): boolean {
  const me = team.me;
  return !me || me.role !== 'curator';
}

/** statusBadge is the coloured status of a site. */
export function statusBadge(s: SelectionStatus) {
  return html`<span class="sel-badge sel-${s}" data-status=${s}>${s}</span>`;
}

/** step is one step of the workflow — nominated, approved or rejected — by whom and when; an unknown nominator is said so. */
function step(what: string, who: string | undefined, at: string | undefined, unknown = false) {
  if (!who && !unknown) return nothing;
  return html`<div class="wf-step" data-step=${what}>
    <span class="muted">${what} by</span> <span class="who">${unknown ? html`<em>unknown</em>` : who}</span>
    ${at ? html`<span class="muted small">${date(at)}</span>` : nothing}
  </div>`;
}

/**
 * workflow shows who nominated, approved and rejected a site, when, and
 * why it was rejected; a site approved before nominators were kept shows
 * its nominator as unknown.
 */
export function workflow(sel: Selection) {
  const steps = [
    step('nominated', sel.nominated_by, sel.nominated_at, sel.nominator_unknown),
    step('approved', sel.approved_by, sel.approved_at),
    step('rejected', sel.rejected_by, sel.rejected_at),
    sel.rejected_by && sel.rejected_reason ? html`<div class="wf-reason" data-reason>“${sel.rejected_reason}”</div>` : nothing,
  ];
  if (!sel.nominated_by && !sel.nominator_unknown && !sel.approved_by && !sel.rejected_by) {
    return sel.decided_by ? html`<span class="muted">${decided(sel)}</span>` : html`<span class="muted" data-undecided>Not nominated yet.</span>`;
  }
  return html`<div class="workflow">${steps}</div>`;
}

/** decided says who last changed the status and when, or '' when no one did. */
export function decided(sel: Selection): string {
  if (!sel.decided_by) return '';
  return sel.decided_at ? `${sel.decided_by}, ${date(sel.decided_at)}` : sel.decided_by;
}
