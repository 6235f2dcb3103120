// Application-wide state that several views share: the current librarian
// and the project's librarian profiles, the live crawl status feed, and
// serialised rating writes.

import { api, message, setActingLibrarian, type CrawlStatus, type LibrarianProfile } from './api';
import { jobFeed, type FeedMode } from './job-feed';

/** LIBRARIAN_KEY + a project's id keeps the librarian chosen in this browser for that project. */
const LIBRARIAN_KEY = 'sitesift.librarian.';
/** PROJECT_KEY is the id of the project this browser last opened: its librarian applies until the project answers. */
const PROJECT_KEY = 'sitesift.project';

function load(key: string): string {
  try {
    return localStorage.getItem(key) ?? '';
  } catch {
    return ''; // storage can be disabled; the name then lasts for the session
  }
}

function store(key: string, value: string): void {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch {
    /* see load */
  }
}

/**
 * Librarian holds the name ratings are made under and the project's
 * librarian profiles (GET /api/librarians). The name is kept in this
 * browser per project (localStorage, keyed by the project's id): a reload
 * keeps it, another project has its own, and a second browser on the same
 * project chooses its own librarian, as two librarians at two machines
 * would. Only a profile of the project can be chosen: a name that is not
 * one (another project's, or a profile merged away) is dropped once the
 * profiles are known. It dispatches 'change' when the name changes and
 * 'profiles' when the list of profiles does.
 */
class Librarian extends EventTarget {
  #name: string;
  #project: string;
  #prompt: (() => Promise<string | null>) | null = null;
  #profiles: LibrarianProfile[] = [];
  #loaded = false;
  #loading: Promise<void> | null = null;
  /** profilesError is the message of the last failed profile call, '' when it worked. */
  profilesError = '';

  constructor() {
    super();
    this.#project = load(PROJECT_KEY);
    this.#name = this.#project ? load(LIBRARIAN_KEY + this.#project).trim() : '';
    setActingLibrarian(this.#name);
  }

  get name(): string {
    return this.#name;
  }

  /** useProject switches to the librarian kept for the project of that id (the app calls it once the project answers). */
  useProject(id: string | undefined): void {
    if (!id || id === this.#project) return;
    this.#project = id;
    store(PROJECT_KEY, id);
    const before = this.#name;
    this.#name = '';
    setActingLibrarian('');
    this.set(load(LIBRARIAN_KEY + id));
    // A project with no librarian kept leaves the name empty, which set
    // does not announce: the chooser would go on showing the last one.
    if (this.#name === '' && before !== '') this.dispatchEvent(new Event('change'));
    this.#check();
  }

  /**
   * pin fixes the name on a team server: the signed-in librarian, whom no
   * choice, stored name or project changes (the server refuses any other).
   */
  pin(name: string): void {
    this.#pinned = name;
    this.set(name);
  }

  #pinned = '';

  set(name: string): void {
    const n = this.#pinned || (this.profile(name)?.name ?? name.trim());
    if (n === this.#name) return;
    this.#name = n;
    setActingLibrarian(n);
    if (this.#project) store(LIBRARIAN_KEY + this.#project, n);
    this.dispatchEvent(new Event('change'));
  }

  /** profile is the project's profile of that name, whatever its case ("ana" finds Ana), or undefined. */
  profile(name: string): LibrarianProfile | undefined {
    const n = name.trim().toLowerCase();
    return this.#profiles.find((p) => p.name.toLowerCase() === n);
  }

  /** check drops a chosen name that is no profile of the project, and spells it as the profile does. */
  #check(): void {
    if (!this.#loaded || !this.#name) return;
    const p = this.profile(this.#name);
    this.set(p ? p.name : '');
  }

  /** profiles are the project's librarians, sorted by name, with how many sites each rated. */
  get profiles(): LibrarianProfile[] {
    return this.#profiles;
  }

  /** isProfile reports whether a librarian of that name, in any case, exists in the project. */
  isProfile(name: string): boolean {
    return this.profile(name) !== undefined;
  }

  /** loadProfiles reads the profiles again (after rating, importing a ratings file, adding one). */
  loadProfiles(): Promise<void> {
    // Calls made while one is under way share it, then one more runs, so the list is never older than the call.
    const run = async () => {
      try {
        this.#profiles = (await api.librarians()) ?? [];
        this.profilesError = '';
        this.#loaded = true;
        this.#check();
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

  /** choose makes the profile of that name (in any case) the current librarian; false when there is none. */
  choose(name: string): boolean {
    const p = this.profile(name);
    if (!p) return false;
    this.set(p.name);
    return true;
  }

  /**
   * add adds a librarian profile to the project (POST /api/librarians; an
   * existing name, in any case, answers with its profile) and makes it the
   * current librarian. It rejects with the server's message for a name it
   * refuses.
   */
  async add(name: string): Promise<string> {
    const p = await api.addLibrarian(name.trim());
    await this.loadProfiles();
    this.set(p.name);
    return p.name;
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
    // The dialog chose a profile or added it.
    this.set(n);
    return this.#name || null;
  }
}

export const librarian = new Librarian();

export type { FeedMode } from './job-feed';

/** ACTIVE_STATES are the crawl states in which data changes under the user. */
export const ACTIVE_STATES = new Set(['running', 'paused', 'stopping']);

/**
 * CrawlFeed is the crawl's part of the job feed (job-feed.ts), for the
 * views that follow the crawl alone. Listeners get a 'status' event when
 * the status arrives or the feed's mode changes; `status` holds the latest
 * value.
 */
class CrawlFeed extends EventTarget {
  constructor() {
    super();
    const publish = () => this.dispatchEvent(new Event('status'));
    jobFeed.addEventListener('crawl', publish);
    jobFeed.addEventListener('mode', publish);
  }

  get status(): CrawlStatus | null {
    return jobFeed.jobs.crawl ?? null;
  }

  get mode(): FeedMode {
    return jobFeed.mode;
  }

  start(): void {
    jobFeed.start();
  }

  /** update publishes a status obtained elsewhere (e.g. the reply to Start). */
  update(s: CrawlStatus): void {
    jobFeed.update('crawl', s);
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
