// Download links in the browser and in the desktop window. In a browser a
// link stays a plain download. In the desktop window (WebKitGTK) a link with
// `download` saves nothing and a `blob:` download goes silently to
// ~/Downloads, so there a link's click asks the window to save the file
// itself (POST /api/desktop/save): the native Save dialog, then the file
// written where the person chose, and the page says where, or that the save
// was cancelled, or why it failed.

import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { message, request, type Answer } from './api';
import type * as Gen from './api-types.gen';
import { alertBox, spinner } from './loader';
import './download.css';

/** inDesktopWindow reports whether the page runs in the Wails window (Wails injects window.runtime). */
export function inDesktopWindow(): boolean {
  return 'runtime' in window;
}

/** REVOKE_MS is how long a saved file's object URL lives: the browser has read it long before. */
const REVOKE_MS = 60_000;

/** saveBlob offers blob as a download named name, through a hidden link clicked once. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: name, rel: 'noopener' });
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), REVOKE_MS);
}

/** savedWhere is the line that says where the window saved a file: its full path. */
export function savedWhere(path: string) {
  return html`Saved <code>${path}</code>.`;
}

/** DesktopSaved is httpapi.Saved, the answer of POST /api/desktop/save. */
export type DesktopSaved = Answer<'POST /api/desktop/save'>;

/** FileFilter is httpapi.FileFilter, one entry of a native dialog's file type menu: patterns separated by ";". The page always gives both. */
export type FileFilter = Required<Gen.FileFilter>;

/**
 * saveInWindow has the desktop window ask where to save the file of the API's
 * GET url (suggesting name) and write it there (POST /api/desktop/save): the
 * file never passes through the page, and a failed or cancelled save leaves
 * nothing on disk.
 */
export function saveInWindow(url: string, name: string, filters?: FileFilter[]): Promise<DesktopSaved> {
  const u = new URL(url, location.href);
  return request<DesktopSaved>('POST', '/api/desktop/save', { url: u.pathname + u.search, name, filters });
}

/** withAllFiles is a dialog's file type menu: the types given, then every file. */
export function withAllFiles(filters: FileFilter[]): FileFilter[] {
  return [...filters, { name: 'All files', pattern: '*' }];
}

/** filtersFor is the Save dialog's file type menu for a file name: its extension, then every file. */
function filtersFor(name: string): FileFilter[] {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  return withAllFiles(ext ? [{ name: `${ext.toUpperCase()} files`, pattern: `*.${ext}` }] : []);
}

/** linkName is the name a link's file is saved under when the server gives none: its download attribute, else the URL's last part. */
function linkName(a: HTMLAnchorElement): string {
  const given = a.getAttribute('download');
  if (given) return given;
  const path = new URL(a.href, location.href).pathname;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || 'download';
}

/**
 * Downloads makes a page's download links save in the desktop window: give
 * each link `@click=${downloads.click}` and put `downloads.note()` near them.
 * In a browser the click is left alone (the link downloads as it always has)
 * and note() shows nothing.
 */
export class Downloads implements ReactiveController {
  /** saving is the file being saved, saved the path of the last one saved, error why the last save failed. */
  saving = '';
  saved = '';
  error = '';
  /** cancelled is the name of the file whose Save dialog was last cancelled. */
  cancelled = '';
  /** asked is the name of the last file asked for, which note(prefix) matches. */
  asked = '';
  #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {}

  /** click is a download link's click handler. */
  click = (ev: MouseEvent): void => {
    if (!inDesktopWindow()) return;
    ev.preventDefault();
    const a = ev.currentTarget as HTMLAnchorElement;
    void this.save(a.getAttribute('href') ?? a.href, linkName(a));
  };

  /** save asks the window where to save the file of url, suggesting name, and saves it there. */
  async save(url: string, name: string): Promise<void> {
    if (this.saving) return;
    this.saving = name;
    this.asked = name;
    this.error = '';
    this.saved = '';
    this.cancelled = '';
    this.#host.requestUpdate();
    try {
      // A file the page made (a data: or blob: link, as a plot's SVG) is
      // read here and sent as text; an API file is saved by the window itself.
      const res = /^(data|blob):/.test(url)
        ? await request<DesktopSaved>('POST', '/api/desktop/save', {
            text: await (await fetch(url)).text(),
            name,
            filters: filtersFor(name),
          })
        : await saveInWindow(url, name, filtersFor(name));
      if (res.cancelled) this.cancelled = name;
      else this.saved = res.path ?? name;
    } catch (err) {
      this.error = `${name}: not saved: ${message(err)}`;
    } finally {
      this.saving = '';
      this.#host.requestUpdate();
    }
  }

  /**
   * saveText saves a file the page made (an edited seed list): in a browser as
   * a download, in the window through the Save dialog. It resolves to a line
   * saying where the file went ("" in a browser, which says so itself), or
   * that the save was cancelled; it throws when the save failed.
   */
  async saveText(text: string, name: string, type = 'text/plain'): Promise<string> {
    if (!inDesktopWindow()) {
      saveBlob(new Blob([text], { type }), name);
      return '';
    }
    const res = await request<DesktopSaved>('POST', '/api/desktop/save', { text, name, filters: filtersFor(name) });
    return res.cancelled ? `not saved: the Save dialog was cancelled` : `saved as ${res.path ?? name}`;
  }

  /** dismiss closes the note of the last save. */
  dismiss = (): void => {
    this.saved = '';
    this.cancelled = '';
    this.error = '';
    this.#host.requestUpdate();
  };

  /**
   * note shows, in the window, the save under way, where the last file went,
   * or why it failed; with a prefix, only when the file asked for begins with it.
   * It is a toast held at the window's bottom edge until closed or the next
   * save, not a line in the page: a line above the download buttons moved
   * every button under it down as it appeared.
   */
  note(prefix = '') {
    if (!inDesktopWindow() || !this.asked.startsWith(prefix)) return nothing;
    if (!this.saving && !this.error && !this.saved && !this.cancelled) return nothing;
    return html`<div class="save-toast">
      ${spinner(!!this.saving, 'Saving')}${this.saving ? html`<span class="muted">Saving <code>${this.saving}</code>…</span>` : nothing}
      ${alertBox(this.error)}${this.saved
        ? html`<p class="saved-note download-saved" role="status">${savedWhere(this.saved)}</p>`
        : nothing}${this.cancelled
        ? html`<p class="saved-note download-cancelled" role="status">Not saved: the Save dialog of <code>${this.cancelled}</code> was cancelled.</p>`
        : nothing}
      ${this.saving ? nothing : html`<button type="button" class="btn small-btn save-toast-close" aria-label="Close" @click=${this.dismiss}>×</button>`}
    </div>`;
  }
}
