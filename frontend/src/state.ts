// Application-wide state that several views share: the current librarian
// and the project's librarian profiles, the live crawl status feed, and
// serialised rating writes.

import { api, message, type CrawlStatus, type LibrarianProfile } from './api';

const LIBRARIAN_KEY = 'sitesift.librarian';

/**
 * Librarian holds the name ratings are made under, persisted in
 * localStorage, and the project's librarian profiles (GET /api/librarians).
 * It dispatches 'change' when the name changes and 'profiles' when the list
 * of profiles does.
 */
class Librarian extends EventTarget {
  #name: string;
  #prompt: (() => Promise<string | null>) | null = null;
  #profiles: LibrarianProfile[] = [];
  #loading: Promise<void> | null = null;
  /** profilesError is the message of the last failed profile call, '' when it worked. */
  profilesError = '';

  constructor() {
    super();
    let stored = '';
    try {
      stored = localStorage.getItem(LIBRARIAN_KEY) ?? '';
    } catch {
      /* storage can be disabled; the name then lasts for the session */
    }
    this.#name = stored.trim();
  }

  get name(): string {
    return this.#name;
  }

  set(name: string): void {
    const n = name.trim();
    if (n === this.#name) return;
    this.#name = n;
    try {
      if (n) localStorage.setItem(LIBRARIAN_KEY, n);
      else localStorage.removeItem(LIBRARIAN_KEY);
    } catch {
      /* see constructor */
    }
    this.dispatchEvent(new Event('change'));
  }

  /** profiles are the project's librarians, sorted by name, with how many sites each rated. */
  get profiles(): LibrarianProfile[] {
    return this.#profiles;
  }

  /** isProfile reports whether a librarian of that name exists in the project. */
  isProfile(name: string): boolean {
    return this.#profiles.some((p) => p.name === name);
  }

  /** loadProfiles reads the profiles again (after rating, importing a ratings file, adding one). */
  loadProfiles(): Promise<void> {
    // Calls made while one is under way share it, then one more runs, so the list is never older than the call.
    const run = async () => {
      try {
        this.#profiles = (await api.librarians()) ?? [];
        this.profilesError = '';
      } catch (err) {
        this.profilesError = message(err);
      }
      this.dispatchEvent(new Event('profiles'));
    };
    const next = (this.#loading ?? Promise.resolve()).then(run);
    this.#loading = next;
    void next.finally(() => {
      if (this.#loading === next) this.#loading = null;
    });
    return next;
  }

  /**
   * choose makes name the current librarian and adds its profile to the
   * project when it has none yet (POST /api/librarians answers with the
   * existing profile when there is one, so a second call does no harm).
   * It rejects with the server's message for a name it refuses.
   */
  async choose(name: string): Promise<void> {
    const n = name.trim();
    if (!n) return;
    this.set(n);
    if (this.isProfile(n)) return;
    await api.addLibrarian(n);
    await this.loadProfiles();
  }

  /** setPrompt installs the dialog that asks for a name (the app shell owns it). */
  setPrompt(fn: () => Promise<string | null>): void {
    this.#prompt = fn;
  }

  /**
   * require returns the librarian's name, asking for it first when it is
   * empty: a rating without a name cannot be stored. null means the user
   * cancelled.
   */
  async require(): Promise<string | null> {
    if (this.#name) return this.#name;
    if (!this.#prompt) return null;
    const n = (await this.#prompt())?.trim() ?? '';
    if (!n) return null;
    // The dialog has added the profile; set the name even if that failed, the first rating registers it.
    this.set(n);
    return n;
  }
}

export const librarian = new Librarian();

export type FeedMode = 'connecting' | 'live' | 'polling';

/** ACTIVE_STATES are the crawl states in which data changes under the user. */
export const ACTIVE_STATES = new Set(['running', 'paused', 'stopping']);

/**
 * CrawlFeed follows the crawl status: Server-Sent Events from
 * /api/crawl/events, and when EventSource fails (an old WebView, a proxy
 * that buffers) polling GET /api/crawl once a second. Listeners get a
 * 'status' event; `status` holds the latest value.
 */
class CrawlFeed extends EventTarget {
  status: CrawlStatus | null = null;
  mode: FeedMode = 'connecting';
  #timer: number | undefined;
  #started = false;

  start(): void {
    if (this.#started) return;
    this.#started = true;
    if (typeof EventSource === 'undefined') {
      this.#poll();
      return;
    }
    const es = new EventSource('/api/crawl/events');
    es.addEventListener('status', (ev) => {
      this.mode = 'live';
      try {
        this.update(JSON.parse((ev as MessageEvent<string>).data) as CrawlStatus);
      } catch {
        /* a malformed frame: the next one comes in half a second */
      }
    });
    es.addEventListener('error', () => {
      // EventSource would retry on its own, but a server or WebView that
      // cannot stream would keep failing; polling works everywhere.
      es.close();
      this.#poll();
    });
  }

  /** update publishes a status obtained elsewhere (e.g. the reply to Start). */
  update(s: CrawlStatus): void {
    this.status = s;
    this.dispatchEvent(new Event('status'));
  }

  #poll(): void {
    this.mode = 'polling';
    this.dispatchEvent(new Event('status'));
    const tick = async () => {
      try {
        this.update(await api.crawlStatus());
      } catch {
        /* the server may be restarting; keep trying */
      }
      this.#timer = window.setTimeout(tick, 1000);
    };
    if (this.#timer === undefined) void tick();
  }
}

export const crawlFeed = new CrawlFeed();

let ratingQueue: Promise<unknown> = Promise.resolve();

/**
 * writeRating stores (rating 1–4, with its note; no note keeps the stored one) or clears (null) a
 * librarian's rating. Writes go out one after another, so pressing "3" then
 * "0" can never reach the server as DELETE before PUT.
 */
export function writeRating(site: string, name: string, rating: number | null, note?: string): Promise<unknown> {
  const send = () => (rating === null ? api.unrate(site, name) : api.rate(site, name, rating, note));
  const write = ratingQueue.then(send, send);
  ratingQueue = write.catch(() => undefined);
  return write;
}

/** ratingsSettled resolves once every rating written so far has been answered, so a reload reads them back. */
export function ratingsSettled(): Promise<unknown> {
  return ratingQueue;
}
