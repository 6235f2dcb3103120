// The keys of ss-review (review-view.ts): 1–4 rate, j/k and the arrows
// move in the queue, n the note, a nominate/approve, r reject, / the query;
// and Enter and Esc in its query and note fields.

import { hasModifier, isTyping } from './keys';

/** ReviewActions are what the page's keys do. */
export interface ReviewActions {
  /** hasLibrarian is false when ratings and decisions need a librarian chosen first. */
  hasLibrarian(): boolean;
  /** hasSite is true while a site is shown. */
  hasSite(): boolean;
  requireLibrarian(): void;
  rate(n: number): void;
  move(d: number): void;
  focusNote(): void;
  advance(): void;
  reject(): void;
  focusQuery(): void;
}

/** reviewKeys returns the page's keydown handler over do_. */
export function reviewKeys(do_: ReviewActions): (ev: KeyboardEvent) => void {
  /** decide runs f as the librarian, asking for one first. */
  const decide = (f: () => void) => (do_.hasLibrarian() ? f() : do_.requireLibrarian());
  return (ev: KeyboardEvent) => {
    if (hasModifier(ev) || isTyping(ev) || document.querySelector('.modal')) return;
    // Held keys would rate or decide a run of sites unseen.
    const once = !ev.repeat;
    switch (ev.key) {
      case '1':
      case '2':
      case '3':
      case '4':
        ev.preventDefault();
        if (!once) return;
        decide(() => do_.rate(Number(ev.key)));
        return;
      case 'j':
      case 'ArrowDown':
        ev.preventDefault();
        do_.move(1);
        return;
      case 'k':
      case 'ArrowUp':
        ev.preventDefault();
        do_.move(-1);
        return;
      case 'n':
        if (!do_.hasSite()) return;
        ev.preventDefault(); // the "n" must not land in the field
        do_.focusNote();
        return;
      case 'a':
        ev.preventDefault();
        if (!once) return;
        decide(() => do_.advance());
        return;
      case 'r':
        ev.preventDefault();
        if (!once) return;
        decide(() => do_.reject());
        return;
      case '/':
        ev.preventDefault();
        do_.focusQuery();
        return;
    }
  };
}

/**
 * fieldKeys returns the keydown handler of a field of the page: Enter runs enter and leaves the field, Esc
 * leaves it, back to the page's keys.
 */
export function fieldKeys(enter: () => void): (ev: KeyboardEvent) => void {
  return (ev: KeyboardEvent) => {
    const box = ev.target as HTMLInputElement;
    if (ev.key === 'Enter') {
      ev.preventDefault();
      enter();
      box.blur();
    } else if (ev.key === 'Escape') {
      ev.preventDefault();
      box.blur();
    }
  };
}
