// The selection workflow as the pages show it: the status badge and the
// one "advance" step the review key `a` takes. The server decides what is
// allowed (PUT /api/sites/{site}/selection answers 409 otherwise); these
// helpers only follow its transitions:
//
//	candidate → nominated → approved, any status → rejected, rejected → candidate

import { html } from 'lit';
import type { Selection, SelectionStatus } from './api';
import { date } from './format';

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

/** statusBadge is the coloured status of a site. */
export function statusBadge(s: SelectionStatus) {
  return html`<span class="sel-badge sel-${s}" data-status=${s}>${s}</span>`;
}

/** decided says who last changed the status and when, or '' when no one did. */
export function decided(sel: Selection): string {
  if (!sel.decided_by) return '';
  return sel.decided_at ? `${sel.decided_by}, ${date(sel.decided_at)}` : sel.decided_by;
}
