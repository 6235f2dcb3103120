// Loader: the one way a view fetches what it shows. A new run aborts the one
// under way, the view shows a spinner while it runs and the server's message
// when it fails; an aborted run (a newer one, the view going away) changes
// nothing. spinner and alertBox render that state the same way everywhere.

import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { isAbort, message } from './api';

/**
 * Outcome says how a run ended: "done" stored its value, "failed" stored its
 * error, "aborted" stored nothing (aborted, or overtaken by a newer run).
 */
export type Outcome = 'done' | 'failed' | 'aborted';

export interface RunOptions {
  /** silent runs (a refresh in the background) leave loading false. */
  silent?: boolean;
}

/**
 * Loader is a Lit ReactiveController holding the last value fetched, the
 * last error and whether a run is under way; every change requests an
 * update of its host, and the host's removal aborts the run.
 */
export class Loader<T> implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  #value: T | null;
  #error = '';
  #loading = false;
  #ctl: AbortController | null = null;

  constructor(host: ReactiveControllerHost, value: T | null = null) {
    this.#host = host;
    this.#value = value;
    host.addController(this);
  }

  /** value is what the last successful run fetched; the view may replace it (an optimistic edit). */
  get value(): T | null {
    return this.#value;
  }

  set value(v: T | null) {
    this.#value = v;
    this.#host.requestUpdate();
  }

  /** error is the message of the last failed run, '' after a successful one; the view may set its own. */
  get error(): string {
    return this.#error;
  }

  set error(e: string) {
    this.#error = e;
    this.#host.requestUpdate();
  }

  /** loading is true while a run that is not silent is under way. */
  get loading(): boolean {
    return this.#loading;
  }

  /** busy is true while any run, silent or not, is under way. */
  get busy(): boolean {
    return this.#ctl !== null;
  }

  /**
   * run aborts the run under way and fetches anew. fetcher must pass the
   * signal to every request it makes; what it returns once the signal is
   * aborted is dropped.
   */
  async run(fetcher: (signal: AbortSignal) => Promise<T>, opts: RunOptions = {}): Promise<Outcome> {
    this.#ctl?.abort();
    const ctl = new AbortController();
    this.#ctl = ctl;
    if (!opts.silent) this.#loading = true;
    this.#host.requestUpdate();
    try {
      const v = await fetcher(ctl.signal);
      if (ctl.signal.aborted) return 'aborted';
      this.#value = v;
      this.#error = '';
      return 'done';
    } catch (err) {
      if (isAbort(err)) return 'aborted';
      this.#error = message(err);
      return 'failed';
    } finally {
      if (this.#ctl === ctl) {
        this.#loading = false;
        this.#ctl = null;
      }
      this.#host.requestUpdate();
    }
  }

  /** abort stops the run under way, if any, and ends loading at once; it leaves value and error as they are. */
  abort(): void {
    if (!this.#ctl) return;
    this.#ctl.abort();
    this.#ctl = null;
    this.#loading = false;
    this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    this.abort();
  }
}

/** spinner is the spinning wheel shown while on, named for screen readers by label. */
export function spinner(on: boolean, label = 'Loading') {
  return on ? html`<span class="spinner" aria-label=${label}></span>` : nothing;
}

/** alertBox shows an error message, or nothing when it is ''. */
export function alertBox(msg: string | undefined) {
  return msg ? html`<div class="alert" role="alert">${msg}</div>` : nothing;
}
