// Saving a file the page holds (a Blob) as a download. It is also the one way
// that saves anything in the desktop window: there a link with a `download`
// attribute to a server URL does nothing, and a plain link to an attachment
// is fetched and dropped, while a `blob:` link with `download` is saved,
// silently, into the Downloads folder (the home folder without one).
//
// Downloads is the pages' download links made to work there too: in a browser
// a link stays a plain download; in the window its click fetches the file,
// saves it as a `blob:` and says where it went.

import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { fetchDownload, message } from './api';
import { alertBox, spinner } from './loader';

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

/** savedWhere is the line that says where the window saved a file. */
export function savedWhere(name: string) {
  return html`Saved <code>${name}</code> in your Downloads folder (your home folder if there is none).`;
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
  /** saving is the file being fetched, saved the last one saved, error why the last save failed. */
  saving = '';
  saved = '';
  error = '';
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

  /** save fetches url and saves it under the server's name for it, else name. */
  async save(url: string, name: string): Promise<void> {
    if (this.saving) return;
    this.saving = name;
    this.asked = name;
    this.error = '';
    this.#host.requestUpdate();
    try {
      const file = await fetchDownload(url);
      const saved = file.filename || name;
      saveBlob(file.blob, saved);
      this.saved = saved;
    } catch (err) {
      this.error = `${name}: ${message(err)}`;
    } finally {
      this.saving = '';
      this.#host.requestUpdate();
    }
  }

  /**
   * note shows, in the window, the save under way, where the last file went,
   * or why it failed; with a prefix, only when the file asked for begins with it.
   */
  note(prefix = '') {
    if (!inDesktopWindow() || !this.asked.startsWith(prefix)) return nothing;
    return html`${spinner(!!this.saving, 'Saving')}${alertBox(this.error)}${this.saved
      ? html`<p class="saved-note download-saved" role="status">${savedWhere(this.saved)}</p>`
      : nothing}`;
  }
}
