// Typed helpers for the sitesift HTTP API (see app/httpapi/API.md). Every response is
// an envelope {"status": "success", "data": ...} or {"status": "error",
// "error_type": ..., "error": ...}; the helpers unwrap it and throw ApiError
// carrying the server's own message, so views can show it as is.
//
// URLs are relative on purpose: the same build runs in the Wails window and
// in a browser pointed at `sitesift serve`.
//
// The types of what the API sends and takes are generated from the Go types
// into api-types.gen.ts (`go run ./tools/tsapi`); this file names them for the
// views and keeps the value sets the Go side leaves as plain strings.

import type * as Gen from './api-types.gen';

export type CrawlState = 'idle' | 'running' | 'paused' | 'stopping' | 'done' | 'stopped' | 'failed' | 'interrupted';
export type Strategy = 'greedy' | 'random' | 'cycle';
/** CrawlScope is which URLs a crawl fetches, measured from its seeds. */
export type CrawlScope = 'page' | 'prefix' | 'host' | 'domain' | 'any';

export type Project = Gen.ProjectInfo;

/** ProjectImport is one import of a site graph (sitesift import). */
export type ProjectImport = Gen.ImportStats;
/** ArchiveImport is one file imported from web archives, with its summary. */
export type ArchiveImport = Gen.ArchiveImport;

/**
 * CrawlStatusOfSite says how fetching a site went: ok (a page fetched fine),
 * dead (every fetch failed: DNS, connection, timeout…), robots-closed
 * (robots.txt disallowed every URL tried), errors-only (only 4xx/5xx
 * answers), slow (its robots.txt asks for a Crawl-delay over the cap: not
 * crawled), not-fetched (known from links only).
 */
export type SiteCrawlStatus = 'ok' | 'dead' | 'robots-closed' | 'errors-only' | 'slow' | 'not-fetched';
export const SITE_CRAWL_STATUSES: SiteCrawlStatus[] = ['ok', 'dead', 'robots-closed', 'errors-only', 'slow', 'not-fetched'];

/** ErrorClass is why a fetch failed; "" for a page fetched fine. */
export type ErrorClass =
  | 'dns'
  | 'connect'
  | 'timeout'
  | 'tls'
  | 'incomplete'
  | 'http-4xx'
  | 'http-5xx'
  | 'robots'
  | 'slow'
  | 'redirect'
  | 'other';

/** ErrorsByClass counts failed fetches by class (a server may add classes of its own). */
export type ErrorsByClass = Partial<Record<ErrorClass, number>> & Record<string, number>;

/**
 * EndReason says why a crawl ended ("" while idle or running): the page cap
 * was reached, nothing was left to fetch, the user stopped it, no seed
 * could be fetched, or sitesift itself failed.
 */
export type EndReason = '' | 'limit' | 'failure-limit' | 'exhausted' | 'stopped' | 'seeds-failed' | 'failed';

export type TopSite = Gen.SiteScore;

export type CrawlStatus = Gen.CrawlStatus;

/** RecrawlCounts count what a recrawl's fetches found of the pages. */
export type RecrawlCounts = Gen.RecrawlCounts;

/** RecrawlReport is what a recrawl found (POST /api/crawl/recrawl). */
export type RecrawlReport = Gen.RecrawlReport;

/** SiteRound is a site's part in one crawl (round 0) or recrawl. */
export type SiteRound = Gen.SiteRound;

/** SiteRecrawls is a site's importance over the crawls (GET /api/sites/{site}/recrawls). */
export type SiteRecrawls = Gen.SiteRecrawls;

/**
 * CrawlSettings are a project's crawl settings (GET /api/settings): who runs
 * the crawl and how politely. A crawl request that carries one of them
 * changes it for the next crawls too.
 */
export type CrawlSettings = Gen.Settings;

/** LINK_GRAPHS are the site graphs a project may rank on (the setting links). */
export const LINK_GRAPHS = ['editorial', 'all'] as const;
export type LinkGraphSetting = (typeof LINK_GRAPHS)[number];

/** LinkGraph names the site graph a listing's importance comes from. */
export type LinkGraph = Gen.LinkGraph;

/** WINDOW_POLICIES are the window policies of Adaptive OPIC a project may choose (`sitesift lab windows`). */
export const WINDOW_POLICIES = ['variable', 'fixed', 'improved', 'interpolation', 'full-history'] as const;
export type WindowPolicy = (typeof WINDOW_POLICIES)[number];

/** SettingsChange is a PUT /api/settings body: absent fields keep their values. */
export type SettingsChange = Gen.SettingsUpdate;

export type CrawlRequest = Gen.CrawlRequest;

/** Continuation says what a crawl started now would continue (GET /api/crawl/continuation). */
export type Continuation = Gen.Continuation;

/** CrawlError is one failed, error or refused fetch of a crawl. */
export type CrawlError = Gen.FetchError;

export type CrawlErrors = Gen.CrawlErrors;

/** WarcFile is one WARC file of the project's archive; the open one is being written. */
export type WarcFile = Gen.WarcfileFile;

/** WaczInfo says what the crawl's WACZ file holds and leaves out (GET /api/wacz). */
export type WaczInfo = Gen.WACZInfo;

export type SortKey = 'opic' | 'pagerank' | 'pages' | 'in_sites' | 'out_sites' | 'site' | 'rating';

/**
 * Standing places a site among all the project's sites (app/rank.go): rank 1 is the highest value, equal
 * values share a rank (1, 2, 2, 4); score is 100 × value / the top site's value, rounded. Absent from older
 * servers (and 0 where a listing does not carry the measure).
 */
export type Standing = Partial<Pick<SiteRow, 'opic_rank' | 'opic_score' | 'opic_ties' | 'pagerank_rank' | 'pagerank_score'>>;
export type Order = 'asc' | 'desc';

export type SiteRow = Gen.SiteRow;

export type SiteList = Gen.SiteList;

/** PlatformsFilter keeps the platform sites alone ('only') or leaves them out ('none'); '' shows all. */
export type PlatformsFilter = '' | 'only' | 'none';

/** RankBasis is what GET /api/rank/basis says the ranking of the sites rests on. */
export type RankBasis = Gen.Basis;
/** PlatformSummary is what GET /api/platforms says of the project's platform sites. */
export type PlatformSummary = Gen.PlatformSummary;

/** PlatformChoice is a site's place after a librarian moved it into or out of the platforms. */
export type PlatformChoice = Gen.PlatformChoice;

/** SiteArchive is what imported archives and the Common Crawl host graph say of a site. */
export type SiteArchive = Gen.SiteArchiveInfo;

export type SitePage = Gen.PageRow;

/** CrawlReport sums up how fetching one site went. */
export type CrawlReport = Gen.SiteReport;

export type SiteLink = Gen.SiteLink;

export type Rating = Gen.Rating;

/** PageText is one crawled page with its texts (GET /api/pages/text). */
export type PageText = Gen.PageText;

export type SiteDetail = Gen.SiteDetail;

export type SearchHit = Gen.SearchHit;

/** SiteCount is one entry of the search's site facet. */
export type SiteCount = Gen.SiteCount;

export type SearchResult = Gen.SearchResult;

/** SearchProblem is the data of a refused search: what is wrong and at which character (from 1). */
export type SearchProblem = Gen.ApiRoutes['GET /api/search']['error'] & { problem: 'empty' | 'syntax' | 'stop_words' };

export type ExportFormat = 'txt' | 'csv' | 'json' | 'yaml';
export type SeedMethod = 'communities' | 'importance';

export type LabExperiment = 'convergence' | 'windows' | 'normleak' | 'links';

/** LabJob is the status of one experiment run; done counts up to total. */
export type LabJob = Gen.JobStatus;

/** Jobs is httpapi.Jobs: the status of the crawl, the archive import and the newest lab job, as the job feed sends them. */
export type Jobs = Gen.Jobs;

/** ImportStatus is app.ImportStatus: the running or last archive import. */
export type ImportStatus = Gen.ImportStatus;

/** ImportState is where an archive import is: idle until the first since the project was opened. */
export type ImportState = 'idle' | 'running' | 'done' | 'failed' | 'cancelled';

/** ImportRequest is app.ArchiveImportRequest: the files (paths on the server) and slice of an import. */
export type ImportRequest = Gen.ArchiveImportRequest;

/** LabParams are an experiment's parameters, named like the CLI flags with underscores. */
export type LabParams = Record<string, string | number | boolean | string[]>;

/** Core is one bipartite core found by Extract-Seeds: its seed is one of its hubs. */
export type Core = Gen.Community;

/** CommunityParams choose the extractor: cover density, or fixed core size and new members. */
export interface CommunityParams {
  count: number;
  density?: number;
  core_size?: number;
  new_members?: number;
  min_hubs?: number;
  min_authorities?: number;
}

export type GraphNode = Gen.GraphNode;

export type GraphLink = Gen.GraphLink;

export type SiteGraph = Gen.GraphView;

/**
 * CollectionParams are the settings of a saved collection's extraction, as the server keeps them: ended says why
 * the run found fewer cores than asked (no link left, or only cores too small), absent when it found as many or in
 * a collection saved before it was kept; off_main_eigenvector are the cores whose hub score is known and off the
 * main eigenvector (0 to within 1e-20).
 */
export type CollectionParams = CommunityParams & { hits_iterations?: number; ended?: 'no_links' | 'small_cores'; off_main_eigenvector?: number[] };

/** LibrarianProfile is a named librarian of the project (no password: a desktop tool). */
export type LibrarianProfile = Gen.Librarian;

export type SelectionStatus = 'candidate' | 'nominated' | 'approved' | 'rejected';
export const SELECTION_STATUSES: SelectionStatus[] = ['candidate', 'nominated', 'approved', 'rejected'];

/** Selection is a site's selection state (Web Curator Tool / PANDAS fields). */
export type Selection = Gen.Selection;

/** Deliverable is one file of the Export page (GET /api/exports), with its file name per format. */
/** LeftOut is what an export leaves out (GET /api/export/{what}/left-out): how many sites, by reason, and in words ('' for none). */
export type LeftOut = Gen.HttpapiLeftOut;

export type Deliverable = Gen.ExportItem;

/** SelectedSeed is one site of GET /api/selection. */
export type SelectedSeed = Gen.SelectedSeed;

export type QueueOrder = 'importance' | 'community' | 'biased' | 'search';

/** QueueItem is one site of a librarian's review queue. */
export type QueueItem = Gen.QueueItem;

export type ReviewQueue = Gen.ReviewQueue;

export type TopPage = Gen.TopPage;

export type OPICPoint = Gen.OPICPoint;

export type SiteCommunity = Gen.SiteCommunity;

export type StoredRating = Gen.Rating;

/** ReviewPage is everything a librarian needs to judge one site. */
export type ReviewPage = Gen.ReviewPage;

/** RatingsImport is the outcome of an accepted ratings file. */
export type RatingsImport = Gen.RatingsImport;

/** BadLine is one line of a refused ratings file. */
export type BadLine = Gen.BadLine;

/** RatingsRefusal is the data of the error envelope of a refused ratings file. */
export type RatingsRefusal = Gen.ApiRoutes['POST /api/ratings/import']['error'];

export type AgreementRow = Gen.AgreementRow;

export type Confusion = Gen.Confusion;

export type Agreement = Gen.Agreement;

/** MeasureComparison is app.MeasureComparison: two measures' orders over the sites both rank. */
export type MeasureComparison = Gen.MeasureComparison;

/** FileResult is an export file fetched by the page: its text and the name the server gave it. */
export interface FileResult {
  text: string;
  filename: string;
  type: string;
}

/** ApiError is thrown for an error envelope or a response that is not one. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  /** data is what an error envelope carries besides its message (the bad lines of a refused ratings file). */
  readonly data: unknown;

  constructor(message: string, status: number, type: string, data?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.type = type;
    this.data = data;
  }
}

interface Envelope<T> {
  status: 'success' | 'error';
  data?: T;
  error_type?: string;
  error?: string;
}

/** query builds "?a=1&b=2" from the defined, non-empty values of params. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * RawBody is a request body sent as is rather than as JSON: a file the
 * server parses itself (a ratings CSV).
 */
export class RawBody {
  constructor(
    readonly body: Blob | string | ArrayBuffer,
    readonly type: string,
  ) {}
}

let session: Promise<string> | null = null;

/** UNAUTHORIZED_EVENT is dispatched on window when an API call answers 401. */
export const UNAUTHORIZED_EVENT = 'ss-unauthorized';

/** acting is the librarian chosen in the top bar ('' for none): see setActingLibrarian. */
let acting = '';

/**
 * setActingLibrarian names the librarian every write is made by (state.ts calls it when the choice changes):
 * the audit log credits them with what the request itself names no one for (a crawl, an import, a settings change).
 */
export function setActingLibrarian(name: string): void {
  acting = name;
}

/**
 * writeHeaders are the headers every write carries: the per-process token of
 * GET /api/session, which only the app's own pages can read (the server
 * refuses writes without it, so another web site cannot drive the app), and
 * the chosen librarian, percent-encoded (a header holds Latin-1 alone).
 */
async function writeHeaders(method: string): Promise<Record<string, string>> {
  if (method === 'GET' || method === 'HEAD') return {};
  session ??= fetch('/api/session', { headers: { Accept: 'application/json' } })
    .then((r) => r.json() as Promise<Envelope<{ token: string }>>)
    .then((env) => env.data?.token ?? '')
    .catch((err) => {
      session = null;
      throw unreachable(err);
    });
  const h: Record<string, string> = { 'X-Sitesift-Token': await session };
  if (acting) h['X-Sitesift-Librarian'] = encodeURIComponent(acting);
  return h;
}

/** unreachable is the error of a request that got no response at all. */
function unreachable(err: unknown): ApiError {
  return new ApiError(`cannot reach sitesift: ${(err as Error).message}`, 0, 'network');
}

/**
 * send makes one fetch: the write headers, the body (JSON, or a RawBody as
 * is), and a failure to reach the server thrown as an ApiError (an abort is
 * rethrown as it is). accept asks for an envelope.
 */
async function send(method: string, path: string, body: unknown, signal: AbortSignal | undefined, accept: boolean): Promise<Response> {
  const headers = await writeHeaders(method);
  const init: RequestInit = { method, headers: accept ? { Accept: 'application/json', ...headers } : headers, signal };
  if (body instanceof RawBody) {
    init.body = body.body;
    init.headers = { ...init.headers, 'Content-Type': body.type };
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
  }
  try {
    return await fetch(path, init);
  } catch (err) {
    if (isAbort(err)) throw err;
    throw unreachable(err);
  }
}

/** request sends one API call and returns the envelope's data. */
export async function request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const res = await send(method, path, body, signal, true);
  const text = await res.text();
  let env: Envelope<T>;
  try {
    env = JSON.parse(text) as Envelope<T>;
  } catch {
    const first = text.trim().split('\n')[0]?.slice(0, 200) || res.statusText;
    throw new ApiError(`${method} ${path}: HTTP ${res.status}: ${first}`, res.status, 'internal');
  }
  if (env.status !== 'success') {
    // A team server's session ended (signed out elsewhere, idle, a restart): team.ts shows the sign-in form.
    if (res.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    throw new ApiError(env.error || `${method} ${path}: HTTP ${res.status}`, res.status, env.error_type || 'internal', env.data);
  }
  return env.data as T;
}

const enc = encodeURIComponent;

/** Answer is the data a route answers with, as the Go side encodes it (api-types.gen.ts). */
export type Answer<R extends keyof Gen.ApiRoutes> = Gen.ApiRoutes[R]['response'];

export const api = {
  project: (signal?: AbortSignal) => request<Answer<'GET /api/project'>>('GET', '/api/project', undefined, signal),

  /** jobs is every job's status at once: what the job feed polls when it cannot stream. */
  jobs: (signal?: AbortSignal) => request<Answer<'GET /api/jobs'>>('GET', '/api/jobs', undefined, signal),

  crawlStatus: (signal?: AbortSignal) => request<Answer<'GET /api/crawl'>>('GET', '/api/crawl', undefined, signal),
  startCrawl: (req: CrawlRequest) => request<Answer<'POST /api/crawl'>>('POST', '/api/crawl', req),
  pauseCrawl: () => request<Answer<'POST /api/crawl/pause'>>('POST', '/api/crawl/pause'),
  resumeCrawl: () => request<Answer<'POST /api/crawl/resume'>>('POST', '/api/crawl/resume'),
  stopCrawl: () => request<Answer<'POST /api/crawl/stop'>>('POST', '/api/crawl/stop'),
  startRecrawl: (req: { proxy?: string }) => request<Answer<'POST /api/crawl/recrawl'>>('POST', '/api/crawl/recrawl', req),
  siteRecrawls: (site: string, signal?: AbortSignal) =>
    request<Answer<'GET /api/sites/{site}/recrawls'>>('GET', `/api/sites/${encodeURIComponent(site)}/recrawls`, undefined, signal),
  continuation: (signal?: AbortSignal) => request<Answer<'GET /api/crawl/continuation'>>('GET', '/api/crawl/continuation', undefined, signal),
  crawlErrors: (p: { crawl?: number; site?: string; class?: string; offset: number; limit: number }, signal?: AbortSignal) =>
    request<Answer<'GET /api/crawl/errors'>>('GET', `/api/crawl/errors${query(p)}`, undefined, signal),

  settings: (signal?: AbortSignal) => request<Answer<'GET /api/settings'>>('GET', '/api/settings', undefined, signal),
  saveSettings: (change: SettingsChange) => request<Answer<'PUT /api/settings'>>('PUT', '/api/settings', change),

  warcs: (signal?: AbortSignal) => request<Answer<'GET /api/warcs'>>('GET', '/api/warcs', undefined, signal),
  warcURL: (name: string) => `/api/warcs/${enc(name)}`,
  wacz: (signal?: AbortSignal) => request<Answer<'GET /api/wacz'>>('GET', '/api/wacz', undefined, signal),
  waczURL: '/api/wacz/download',

  sites: (
    p: {
      sort: SortKey;
      order: Order;
      q?: string;
      status?: SiteCrawlStatus | '';
      offset: number;
      limit: number;
      librarian?: string;
      archived?: string;
      platforms?: PlatformsFilter;
    },
    signal?: AbortSignal,
  ) => request<Answer<'GET /api/sites'>>('GET', `/api/sites${query(p)}`, undefined, signal),
  /** captures is what the project's own crawls captured of a site, and the WACZ file that replays it. */
  captures: (site: string, signal?: AbortSignal) =>
    request<Answer<'GET /api/sites/{site}/captures'>>('GET', `/api/sites/${enc(site)}/captures`, undefined, signal),
  site: (site: string, librarian: string, signal?: AbortSignal) =>
    request<Answer<'GET /api/sites/{site}'>>('GET', `/api/sites/${enc(site)}${query({ librarian })}`, undefined, signal),
  /** rate stores a rating; a note replaces the stored one, no note (undefined) keeps it. */
  rate: (site: string, librarian: string, rating: number, note?: string) =>
    request<Answer<'PUT /api/sites/{site}/rating'>>('PUT', `/api/sites/${enc(site)}/rating`, { librarian, rating, note }),
  unrate: (site: string, librarian: string) =>
    request<unknown>('DELETE', `/api/sites/${enc(site)}/rating${query({ librarian })}`),
  /** pageText is one crawled page with its main text and whole text. */
  pageText: (url: string, signal?: AbortSignal) => request<Answer<'GET /api/pages/text'>>('GET', `/api/pages/text${query({ url })}`, undefined, signal),
  /** rankBasis says what the ranking of the sites rests on, and whether it separates them. */
  rankBasis: (signal?: AbortSignal) => request<Answer<'GET /api/rank/basis'>>('GET', '/api/rank/basis', undefined, signal),
  /** platforms counts the project's platform sites for the Crawl page. */
  platforms: (signal?: AbortSignal) => request<Answer<'GET /api/platforms'>>('GET', '/api/platforms', undefined, signal),
  /** setPlatform moves a site into (true) or out of (false) the project's platforms, whatever the list says. */
  setPlatform: (site: string, platform: boolean, librarian?: string) =>
    request<Answer<'PUT /api/sites/{site}/platform'>>('PUT', `/api/sites/${enc(site)}/platform`, { platform, librarian: librarian || undefined }),
  /** note keeps a librarian's note on a site without touching their rating (a note alone has rating 0); '' removes it. */
  note: (site: string, librarian: string, note: string) => request<Answer<'PUT /api/sites/{site}/note'>>('PUT', `/api/sites/${enc(site)}/note`, { librarian, note }),

  /** exports lists the Export page's deliverables with this project's file names (top-K for count). */
  exports: async (count: number, signal?: AbortSignal): Promise<Deliverable[]> =>
    (await request<Answer<'GET /api/exports'>>('GET', `/api/exports${query({ count })}`, undefined, signal)) ?? [],
  /** exportLeftOut tells how many sites a deliverable, with those parameters, leaves out and why. */
  exportLeftOut: (what: string, p: Record<string, string | number | undefined> = {}, signal?: AbortSignal) =>
    request<Answer<'GET /api/export/{what}/left-out'>>('GET', `/api/export/${enc(what)}/left-out${query(p)}`, undefined, signal),
  /** exportFileURL is one deliverable as a download. */
  exportFileURL: (what: string, format: string, p: Record<string, string | number | undefined> = {}) =>
    `/api/export/${enc(what)}${query({ format, ...p })}`,

  /** search finds the pages with every word; any: 1 finds those with any of them. */
  search: (p: { q: string; site?: string; offset: number; limit: number; any?: 1 }, signal?: AbortSignal) =>
    request<Answer<'GET /api/search'>>('GET', `/api/search${query(p)}`, undefined, signal),

  /**
   * exportURL is the seed list of the K most important sites (method
   * importance) or of K communities; includeFailed keeps the sites whose
   * crawl failed (dead, closed to robots, errors only) in an importance list,
   * includePlatforms the platform sites in either.
   */
  exportURL: (format: ExportFormat, count: number, method: SeedMethod = 'importance', includeFailed = false, includeRejected = false, includePlatforms = false) =>
    `/api/export/seeds${query({
      method,
      format,
      count,
      include_failed: includeFailed ? 'true' : undefined,
      include_rejected: includeRejected ? 'true' : undefined,
      include_platforms: includePlatforms ? 'true' : undefined,
    })}`,
  heritrixURL: () => '/api/export/heritrix',
  ratingsURL: () => '/api/export/ratings.csv',

  /** exportText fetches the export file itself (not an envelope) for a preview. */
  async exportText(format: ExportFormat, count: number, includeFailed: boolean, signal?: AbortSignal, includeRejected = false, includePlatforms = false): Promise<string> {
    return (await fetchFile('GET', api.exportURL(format, count, 'importance', includeFailed, includeRejected, includePlatforms), undefined, signal)).text;
  },

  /** exportSeeds sends an edited seed list and returns the file the server makes of it. */
  exportSeeds: (seeds: string[], format: ExportFormat) => fetchFile('POST', '/api/export/seeds', { seeds, format }),

  labStart: (experiment: LabExperiment, params: LabParams) => request<Answer<'POST /api/lab/{experiment}'>>('POST', `/api/lab/${enc(experiment)}`, params),
  labCancel: (id: string) => request<Answer<'POST /api/lab/jobs/{id}/cancel'>>('POST', `/api/lab/jobs/${enc(id)}/cancel`),
  labJob: (id: string, signal?: AbortSignal) => request<Answer<'GET /api/lab/jobs/{id}'>>('GET', `/api/lab/jobs/${enc(id)}`, undefined, signal),
  labSvgURL: (id: string) => `/api/lab/jobs/${enc(id)}/svg`,
  labCsvURL: (id: string) => `/api/lab/jobs/${enc(id)}/csv`,
  labFileURL: (id: string, name: string) => `/api/lab/jobs/${enc(id)}/files/${enc(name)}`,
  /** labSvg fetches a finished job's plot as text. */
  labSvg: async (id: string, signal?: AbortSignal) => (await fetchFile('GET', api.labSvgURL(id), undefined, signal)).text,

  librarians: (signal?: AbortSignal) => request<Answer<'GET /api/librarians'>>('GET', '/api/librarians', undefined, signal),
  /** addLibrarian creates a profile, or returns the existing one of that name. */
  addLibrarian: (name: string) => request<Answer<'POST /api/librarians'>>('POST', '/api/librarians', { name }),

  reviewQueue: (
    p: { librarian: string; order: QueueOrder; q?: string; limit?: number; bias?: number; includeFailed?: boolean; includePlatforms?: boolean },
    signal?: AbortSignal,
  ) => {
    const { includeFailed, includePlatforms, ...rest } = p;
    return request<Answer<'GET /api/review/queue'>>(
      'GET',
      `/api/review/queue${query({ ...rest, include_failed: includeFailed ? 'true' : undefined, include_platforms: includePlatforms ? 'true' : undefined })}`,
      undefined,
      signal,
    );
  },
  review: (site: string, librarian: string, signal?: AbortSignal) =>
    request<Answer<'GET /api/sites/{site}/review'>>('GET', `/api/sites/${enc(site)}/review${query({ librarian })}`, undefined, signal),
  /**
   * setSelection changes a site's selection; a note, subject, reason or page_only (an approved site's seed as its
   * page alone) left undefined keeps the stored one.
   */
  setSelection: (
    site: string,
    body: { librarian: string; status: SelectionStatus; note?: string; subject?: string; reason?: string; page_only?: boolean },
  ) =>
    request<Answer<'PUT /api/sites/{site}/selection'>>('PUT', `/api/sites/${enc(site)}/selection`, body),
  selection: (status: SelectionStatus, signal?: AbortSignal) =>
    request<Answer<'GET /api/selection'>>('GET', `/api/selection${query({ status })}`, undefined, signal),
  selectionExportURL: (status: SelectionStatus, format: ExportFormat) => `/api/export/selection${query({ status, format })}`,

  /**
   * importRatings sends a ratings CSV file; a refused file throws ApiError whose data is a RatingsRefusal: its bad
   * lines (400), or the librarians it names that the project does not have (409), added only with newLibrarians.
   */
  importRatings: (file: ArrayBuffer | string, name: string, newLibrarians = false) =>
    request<Answer<'POST /api/ratings/import'>>('POST', `/api/ratings/import${query({ name, new_librarians: newLibrarians ? '1' : undefined })}`,
      new RawBody(file, 'text/csv; charset=utf-8')),
  ratingsFileURL: () => '/api/ratings/export',

  agreement: (p: { rater?: string; biased?: boolean }, signal?: AbortSignal) =>
    request<Answer<'GET /api/agreement'>>('GET', `/api/agreement${query({ rater: p.rater, biased: p.biased ? 'true' : undefined })}`, undefined, signal),

  communities: (p: CommunityParams, signal?: AbortSignal) =>
    request<Answer<'GET /api/communities'>>('GET', `/api/communities${query({ ...p })}`, undefined, signal),
  graph: (p: CommunityParams & { limit: number }, signal?: AbortSignal) =>
    request<Answer<'GET /api/graph'>>('GET', `/api/graph${query({ ...p })}`, undefined, signal),
};

/**
 * fetchFile fetches a response that is a file rather than an envelope (an
 * export, a plot). Errors still come as an envelope, whose message is thrown.
 */
export async function fetchFile(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<FileResult> {
  const res = await send(method, path, body, signal, false);
  const text = await res.text();
  if (!res.ok) throw fileError(method, path, res, text);
  return { text, filename: dispositionName(res.headers.get('Content-Disposition') ?? ''), type: res.headers.get('Content-Type') ?? '' };
}

/** fetchBlob fetches a binary file (a WARC file) whole, for saving it where links cannot (the desktop window). */
export async function fetchBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const res = await send('GET', path, undefined, signal, false);
  if (!res.ok) throw fileError('GET', path, res, await res.text());
  return res.blob();
}

/**
 * fetchDownload fetches a file to save it where download links save nothing
 * (the desktop window): its bytes and the name the server gives it
 * (Content-Disposition), "" when it gives none.
 */
export async function fetchDownload(path: string, signal?: AbortSignal): Promise<{ blob: Blob; filename: string }> {
  const res = await send('GET', path, undefined, signal, false);
  if (!res.ok) throw fileError('GET', path, res, await res.text());
  return { blob: await res.blob(), filename: dispositionName(res.headers.get('Content-Disposition') ?? '') };
}

/** fileError is the ApiError of a file request that failed: the envelope's message, else the HTTP status. */
function fileError(method: string, path: string, res: Response, text: string): ApiError {
  let msg = `${method} ${path}: HTTP ${res.status}`;
  let type = 'internal';
  try {
    const env = JSON.parse(text) as Envelope<unknown>;
    msg = env.error || msg;
    type = env.error_type || type;
  } catch {
    /* not JSON: keep the HTTP status */
  }
  return new ApiError(msg, res.status, type);
}

/** dispositionName reads the file name from a Content-Disposition header, or "" when it has none. */
export function dispositionName(cd: string): string {
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd);
  if (!m?.[1]) return '';
  try {
    return decodeURIComponent(m[1]).replace(/[\\/]/g, '_');
  } catch {
    return m[1];
  }
}

/** message turns anything thrown into one line for the UI. */
export function message(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** isAbort reports whether err comes from an aborted fetch. */
export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}
