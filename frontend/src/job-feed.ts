// The one feed of the project's jobs: the crawl, an archive import and the
// lab's runs. Server-Sent Events from /api/jobs/events, and when
// EventSource fails (an old WebView, a proxy that buffers, the server's
// bound on streams) polling GET /api/jobs once a second. The views that show
// a job listen to it; none asks the server for a job's progress itself.

import { api, type Jobs } from './api';

/** JobKind is a kind of job the feed follows; its events are named so. */
export type JobKind = keyof Jobs;

export type FeedMode = 'connecting' | 'live' | 'polling';

const KINDS: readonly JobKind[] = ['crawl', 'import', 'lab'];
const POLL_MS = 1000;

/**
 * JobFeed holds the latest status of each kind of job and dispatches an
 * event named by the kind ('crawl', 'import', 'lab') when one arrives, and
 * 'mode' when it goes from streaming to polling.
 */
class JobFeed extends EventTarget {
  /** jobs are the latest statuses, each kind once it has arrived. */
  readonly jobs: Partial<Jobs> = {};
  mode: FeedMode = 'connecting';
  #timer: number | undefined;
  #started = false;

  /** start opens the feed; later calls do nothing. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    if (typeof EventSource === 'undefined') {
      this.#poll();
      return;
    }
    const es = new EventSource('/api/jobs/events');
    for (const kind of KINDS) {
      es.addEventListener(kind, (ev) => {
        if (this.mode !== 'live') this.#setMode('live');
        try {
          this.update(kind, JSON.parse((ev as MessageEvent<string>).data) as Jobs[typeof kind]);
        } catch {
          /* a malformed frame: the next one comes soon */
        }
      });
    }
    es.addEventListener('error', () => {
      // EventSource would retry on its own, but a server or WebView that
      // cannot stream, or a server at its bound of streams, would keep
      // failing; polling works everywhere.
      es.close();
      this.#poll();
    });
  }

  /** update publishes a status, from the feed or from another answer (the reply to a start or a cancel). */
  update<K extends JobKind>(kind: K, status: Jobs[K]): void {
    this.jobs[kind] = status;
    this.dispatchEvent(new Event(kind));
  }

  #setMode(mode: FeedMode): void {
    this.mode = mode;
    this.dispatchEvent(new Event('mode'));
  }

  #poll(): void {
    this.#setMode('polling');
    const tick = async () => {
      try {
        const js = await api.jobs();
        for (const kind of KINDS) this.update(kind, js[kind]);
      } catch {
        /* the server may be restarting; keep trying */
      }
      this.#timer = window.setTimeout(tick, POLL_MS);
    };
    if (this.#timer === undefined) void tick();
  }
}

export const jobFeed = new JobFeed();
