// Helpers for the keyboard shortcuts of the views.

import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** isTyping reports whether a key event happens in a text field, where view shortcuts must not fire. */
export function isTyping(ev: KeyboardEvent): boolean {
  const t = (ev.composedPath()[0] ?? ev.target) as HTMLElement | null;
  if (!t || !(t instanceof HTMLElement)) return false;
  if (t.isContentEditable) return true;
  const tag = t.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (t as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(type);
  }
  return false;
}

/** hasModifier reports Ctrl/Alt/Meta, which belong to the browser, not to view shortcuts. */
export function hasModifier(ev: KeyboardEvent): boolean {
  return ev.ctrlKey || ev.altKey || ev.metaKey;
}

/** windowKeys hands the window's keydown events to onKey while host (a view) is on the page. */
export function windowKeys(host: ReactiveControllerHost, onKey: (ev: KeyboardEvent) => void): void {
  const keys: ReactiveController = {
    hostConnected: () => window.addEventListener('keydown', onKey),
    hostDisconnected: () => window.removeEventListener('keydown', onKey),
  };
  host.addController(keys);
}
