// Saving a file the page holds (a Blob) as a download. It is also the one way
// that saves anything in the desktop window: there a link with a `download`
// attribute to a server URL does nothing, and a plain link to an attachment
// is fetched and dropped, while a `blob:` link with `download` is saved,
// silently, into the Downloads folder (the home folder without one).

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
