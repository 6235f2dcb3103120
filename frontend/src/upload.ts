// Choosing a file to import, in the browser and in the desktop window. A
// File's body crashes WebKitGTK's request path in the window (the whole
// process dies), so no import ever sends a File: the page reads the chosen
// file's bytes and sends them as an ArrayBuffer. In a browser the file
// comes from an <input type=file>; in the window from the native Open
// dialog (POST /api/desktop/open), which reads the file on the Go side.
//
// Every file import of the frontend uses FilePicker: put picker.render() in
// the form, and send picker.file.data when it is set.

import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { request, message, type Answer } from './api';
import { inDesktopWindow, withAllFiles, type FileFilter } from './download';
import { alertBox, spinner } from './loader';

/** PickedFile is a chosen file's name, its bytes and, in the window, its full path. */
export interface PickedFile {
  name: string;
  data: ArrayBuffer;
  path?: string;
}

/** DesktopOpened is httpapi.Opened, the answer of POST /api/desktop/open: the file's bytes in base64. */
type DesktopOpened = Answer<'POST /api/desktop/open'>;

/** PickerOptions describe a picker: the id of its control, what it accepts and the dialog's title. */
export interface PickerOptions {
  /** id of the file input (browser) or the Choose button (window). */
  id: string;
  /** accept is the input's accept attribute (".csv,text/csv"). */
  accept: string;
  /** filters are the Open dialog's file types; an "All files" entry is added. */
  filters: FileFilter[];
  /** title of the Open dialog. */
  title: string;
  /** changed is called when a file is chosen or the choice is cleared. */
  changed?: () => void;
}

function decodeBase64(s: string): ArrayBuffer {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

/** openInWindow asks the window which file to open and returns it, or null when the dialog was cancelled. */
export async function openInWindow(title: string, filters: FileFilter[]): Promise<PickedFile | null> {
  const res = await request<DesktopOpened>('POST', '/api/desktop/open', { title, filters });
  if (res.cancelled) return null;
  return { name: res.name ?? 'file', path: res.path, data: decodeBase64(res.data ?? '') };
}

/** FilePicker is a form's file chooser, giving the chosen file's bytes. */
export class FilePicker implements ReactiveController {
  /** file is the chosen file, read whole; null before a choice. */
  file: PickedFile | null = null;
  /** reading while the file is read, error why the last choice failed. */
  reading = false;
  error = '';
  #host: ReactiveControllerHost;
  #opts: PickerOptions;

  constructor(host: ReactiveControllerHost, opts: PickerOptions) {
    this.#host = host;
    this.#opts = opts;
    host.addController(this);
  }

  hostConnected(): void {}

  #set(file: PickedFile | null, error = ''): void {
    this.file = file;
    this.error = error;
    this.reading = false;
    this.#opts.changed?.();
    this.#host.requestUpdate();
  }

  #input = async (ev: Event): Promise<void> => {
    const f = (ev.target as HTMLInputElement).files?.[0];
    if (!f) return this.#set(null);
    this.reading = true;
    this.#host.requestUpdate();
    try {
      this.#set({ name: f.name, data: await f.arrayBuffer() });
    } catch (err) {
      this.#set(null, `${f.name}: cannot read the file: ${message(err)}`);
    }
  };

  #choose = async (): Promise<void> => {
    if (this.reading) return;
    this.reading = true;
    this.error = '';
    this.#host.requestUpdate();
    try {
      const f = await openInWindow(this.#opts.title, withAllFiles(this.#opts.filters));
      if (f) this.#set(f);
      else {
        this.reading = false;
        this.#host.requestUpdate(); // cancelled: the earlier choice stays
      }
    } catch (err) {
      this.#set(null, message(err));
    }
  };

  /** render is the chooser: a file input in a browser, a Choose button and the file's path in the window. */
  render() {
    const o = this.#opts;
    if (!inDesktopWindow()) {
      return html`<input id=${o.id} type="file" accept=${o.accept} @change=${this.#input} />${this.error ? alertBox(this.error) : nothing}`;
    }
    return html`<button type="button" id=${o.id} class="btn" @click=${this.#choose} ?disabled=${this.reading}>Choose file…</button>
      ${spinner(this.reading, 'Opening')}
      <span class="picked-file" title=${this.file?.path ?? ''}>${this.file
        ? html`<code>${this.file.name}</code>`
        : html`<span class="muted">no file chosen</span>`}</span>
      ${this.error ? alertBox(this.error) : nothing}`;
  }
}
