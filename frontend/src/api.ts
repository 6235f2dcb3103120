// Typed helpers for the sitesift HTTP API (see app/httpapi/API.md). Every response is
// an envelope {"status": "success", "data": ...} or {"status": "error",
// "error_type": ..., "error": ...}; the helpers unwrap it and throw ApiError
// carrying the server's own message, so views can show it as is.
//
// URLs are relative on purpose: the same build runs in the Wails window and
// in a browser pointed at `sitesift serve`.

export type CrawlState = 'idle' | 'running' | 'paused' | 'stopping' | 'done' | 'stopped' | 'failed';
export type Strategy = 'greedy' | 'random' | 'cycle';
/** CrawlScope is which URLs a crawl fetches, measured from its seeds. */
export type CrawlScope = 'page' | 'prefix' | 'host' | 'domain' | 'any';

export interface Project {
  /** id tells one project from another: the librarian chosen in a browser is kept per project id. */
  id?: string;
  /** name is the directory's name, which every exported file's name starts with. */
  name?: string;
  dir: string;
  pages: number;
  sites: number;
  librarians: string[];
  /** imports are the project's site-graph imports, oldest first; empty for a crawled project, absent from older servers. */
  imports?: ProjectImport[] | null;
}

/** ProjectImport is one import of a site graph (sitesift import). */
export interface ProjectImport {
  file: string;
  imported_at: string;
  sites: number;
  /** edges counts the distinct linked site pairs of the file. */
  edges: number;
  self_edges: number;
}

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

export interface TopSite {
  site: string;
  opic: number;
}

export interface CrawlStatus {
  state: CrawlState;
  strategy: Strategy | '';
  /** pages counts the responses, error answers included. */
  pages: number;
  /** pages_ok counts the pages fetched fine (what max_pages caps), which the project keeps; absent from older servers. */
  pages_ok?: number;
  max_pages: number;
  /** max_failures caps errors, the failed fetches and error answers; absent from older servers. */
  max_failures?: number;
  pages_per_sec: number;
  sites: number;
  queue: number;
  errors: number;
  bad_links?: number;
  refused?: number;
  /** retries counts the fetches tried again (timeout, connection, 5xx, 429); absent from older servers. */
  retries?: number;
  elapsed_sec: number;
  last_error: string;
  top: TopSite[] | null;
  /** top_platforms counts the platform sites left out of top (ranked above its last site); absent from older servers. */
  top_platforms?: number;
  /** end_reason is absent from older servers. */
  end_reason?: EndReason;
  /** errors_by_class covers the current or last crawl; absent from older servers. */
  errors_by_class?: ErrorsByClass | null;
  /**
   * dropped counts the distinct URLs found and left out, by why: out-of-scope,
   * too-deep and the trap guards (path-depth, repeated-segments,
   * query-variants, calendar); absent from older servers.
   */
  dropped?: Record<string, number> | null;
  /** truncated counts the pages whose body was cut at the size cap (10 MiB); absent from older servers. */
  truncated?: number;
  /** recrawl is what a recrawl found; absent for a crawl. */
  recrawl?: RecrawlReport;
}

/** RecrawlCounts count what a recrawl's fetches found of the pages. */
export interface RecrawlCounts {
  unchanged: number;
  changed: number;
  new: number;
  gone: number;
  failed: number;
}

/** RecrawlReport is what a recrawl found (POST /api/crawl/recrawl). */
export interface RecrawlReport extends RecrawlCounts {
  round: number;
  revisit: number;
  finished: boolean;
  moved: { site: string; before: number; after: number }[] | null;
}

/** SiteRound is a site's part in one crawl (round 0) or recrawl. */
export interface SiteRound extends RecrawlCounts {
  round: number;
  started_at: string;
  reading: number;
  importance: number;
}

/** SiteRecrawls is a site's importance over the crawls (GET /api/sites/{site}/recrawls). */
export interface SiteRecrawls {
  site: string;
  window: string;
  window_size: number;
  rounds: SiteRound[] | null;
  /** gone are the site's pages recrawls found gone (404, 410, redirected), latest first. */
  gone: { url: string; title: string; status: number; why: string; gone_at: string }[] | null;
}

/**
 * CrawlSettings are a project's crawl settings (GET /api/settings): who runs
 * the crawl and how politely. A crawl request that carries one of them
 * changes it for the next crawls too.
 */
export interface CrawlSettings {
  /** contact is an e-mail address or URL where webmasters reach the operator, "" for none. */
  contact: string;
  /** user_agent is the operator's own User-Agent, "" for the default. */
  user_agent: string;
  /** effective_user_agent is the User-Agent crawls send (read-only). */
  effective_user_agent?: string;
  /** delay_ms is the least time between two requests to one site. */
  delay_ms: number;
  /** parallel is the number of sites fetched at once. */
  parallel: number;
  /** max_delay_ms is the longest delay a site may ask for; absent from older servers. */
  max_delay_ms?: number;
  /** window is the window policy that sets the importance after a recrawl; absent from older servers. */
  window?: WindowPolicy;
  /** window_size is the window's size in crawls (1–100); absent from older servers. */
  window_size?: number;
  /** single_person_approval lets the nominator of a site approve it too (a lone librarian); off: two librarians look at each approved site. */
  single_person_approval?: boolean;
  /** links is the site graph the importance is computed on: editorial (the default) or all; absent from older servers. */
  links?: LinkGraphSetting;
}

/** LINK_GRAPHS are the site graphs a project may rank on (the setting links). */
export const LINK_GRAPHS = ['editorial', 'all'] as const;
export type LinkGraphSetting = (typeof LINK_GRAPHS)[number];

/** LinkGraph names the site graph a listing's importance comes from. */
export interface LinkGraph {
  links: LinkGraphSetting;
  /** label is the graph's name for readers: "editorial links", "all links", "all links: the import has no page structure"… */
  label: string;
}

/** WINDOW_POLICIES are the window policies of Adaptive OPIC a project may choose (`sitesift lab windows`). */
export const WINDOW_POLICIES = ['variable', 'fixed', 'improved', 'interpolation', 'full-history'] as const;
export type WindowPolicy = (typeof WINDOW_POLICIES)[number];

/** SettingsChange is a PUT /api/settings body: absent fields keep their values. */
export type SettingsChange = Partial<Omit<CrawlSettings, 'effective_user_agent'>>;

export interface CrawlRequest extends SettingsChange {
  seeds: string[];
  max_pages?: number;
  /** max_failures ends the crawl after so many failures (absent: as many as max_pages). */
  max_failures?: number;
  max_pages_per_site?: number;
  strategy?: Strategy;
  proxy?: string;
  /** > 0 favours the sites rated 3–4 on average: their teleport share is 1 + bias. */
  bias?: number;
  /** fresh_frontier starts from the new seeds only, keeping what was fetched. */
  fresh_frontier?: boolean;
  /** scope is which URLs are fetched (default any); max_hops how far out of it links are still followed. */
  scope?: CrawlScope;
  max_hops?: number;
  /** max_depth caps the links followed from a seed (0 or absent: no cap). */
  max_depth?: number;
  /** include and exclude are regular expressions (Go syntax) of URLs fetched whatever the scope, and never fetched. */
  include?: string[];
  exclude?: string[];
}

/** Continuation says what a crawl started now would continue (GET /api/crawl/continuation). */
export interface Continuation {
  continues: boolean;
  last_crawl?: string;
  /** pages counts the pages fetched fine, fetches every fetch kept, waiting the links not fetched yet. */
  pages?: number;
  fetches?: number;
  waiting?: number;
}

/** CrawlError is one failed, error or refused fetch of a crawl. */
export interface CrawlError {
  url: string;
  site: string;
  status: number;
  class: ErrorClass | string;
  error: string;
  fetched_at: string;
}

export interface CrawlErrors {
  /** crawl is the crawl's id, 0 for a project never crawled. */
  crawl: number;
  total: number;
  rows: CrawlError[] | null;
}

/** WarcFile is one WARC file of the project's archive; the open one is being written. */
export interface WarcFile {
  name: string;
  size: number;
  records: number;
  modified: string;
  open: boolean;
}

export type SortKey = 'opic' | 'pagerank' | 'pages' | 'in_sites' | 'out_sites' | 'site' | 'rating';

/**
 * Standing places a site among all the project's sites (app/rank.go): rank 1 is the highest value, equal
 * values share a rank (1, 2, 2, 4); score is 100 × value / the top site's value, rounded. Absent from older
 * servers (and 0 where a listing does not carry the measure).
 */
export interface Standing {
  opic_rank?: number;
  opic_score?: number;
  pagerank_rank?: number;
  pagerank_score?: number;
}
export type Order = 'asc' | 'desc';

export interface SiteRow extends Standing {
  site: string;
  opic: number;
  pagerank: number;
  pages: number;
  in_sites: number;
  out_sites: number;
  rating: number | null;
  /** crawl_status and errors are absent from older servers; pages then counts failed fetches too. */
  crawl_status?: SiteCrawlStatus;
  /** errors counts the fetches that failed or answered 4xx/5xx. */
  errors?: number;
  /** platform is true of a social network, video platform, shortener, CDN or ad host; absent from older servers. */
  platform?: boolean;
}

export interface SiteList {
  total: number;
  offset: number;
  limit: number;
  rows: SiteRow[];
  /** archive is what imported archives (CDX) and the Common Crawl graph say of the listed sites, by name. */
  archive?: Record<string, SiteArchive>;
  /** graph is the site graph the importance and the degrees come from; absent from older servers. */
  graph?: LinkGraph;
  /** platforms is the project's number of platform sites, whatever the query; absent from older servers. */
  platforms?: number;
}

/** PlatformsFilter keeps the platform sites alone ('only') or leaves them out ('none'); '' shows all. */
export type PlatformsFilter = '' | 'only' | 'none';

/** PlatformSummary is what GET /api/platforms says of the project's platform sites. */
export interface PlatformSummary {
  count: number;
  /** sites are the first platform sites by OPIC. */
  sites: string[] | null;
  /** note says in one sentence why platforms are apart. */
  note: string;
}

/** PlatformChoice is a site's place after a librarian moved it into or out of the platforms. */
export interface PlatformChoice {
  site: string;
  platform: boolean;
  /** listed is whether the list of platforms names the site. */
  listed: boolean;
}

/** SiteArchive is what imported archives and the Common Crawl host graph say of a site. */
export interface SiteArchive {
  urls: number;
  captures: number;
  first?: string;
  last?: string;
  cc_inlinks_outside?: number;
  cc_harmonic?: number;
  cc_pagerank?: number;
}

export interface SitePage {
  url: string;
  title: string;
  status: number;
  content_type: string;
  /** error_class is why the fetch failed, "" when it was fine; absent from older servers. */
  error_class?: ErrorClass | '';
}

/** CrawlReport sums up how fetching one site went. */
export interface CrawlReport {
  pages_ok: number;
  errors_by_class: ErrorsByClass | null;
  robots_blocked: number;
  /** out_of_scope and trapped count the URLs of the site left out (out of scope or too deep; by a trap guard); absent from older servers. */
  out_of_scope?: number;
  trapped?: number;
  /** delay_ms is the delay between two requests the last crawl kept there, 0 when it never asked; absent from older servers. */
  delay_ms?: number;
}

export interface SiteLink {
  site: string;
  weight: number;
  opic: number;
  /** opic_score is the linked site's OPIC as 0–100 of the top site's; absent from older servers. */
  opic_score?: number;
}

export interface Rating {
  librarian: string;
  rating: number;
  note: string;
  rated_at: string;
}

/** PageText is one crawled page with its texts (GET /api/pages/text). */
export interface PageText {
  url: string;
  site: string;
  status: number;
  title: string;
  /** text is the page's main content, what search finds. */
  text: string;
  /** full_text is the whole body's text, template included: kept to be shown, never indexed. */
  full_text: string;
  /** language is an ISO 639-1 code, '' when it could not be told. */
  language: string;
  /** published is the date the page says it was published, absent when it says none. */
  published?: string;
  fetched_at?: string;
  editorial_links: number;
  /** template_links counts the links outside the main content, repeated_links among them. */
  template_links: number;
  /** repeated_links counts the main content's links to a URL most pages of the site link to. */
  repeated_links: number;
  /** full_text_missing: fetched before sitesift told main text from template; text is then the whole body's text. */
  full_text_missing: boolean;
}

export interface SiteDetail extends Standing {
  site: string;
  opic: number;
  pagerank: number;
  pages_count: number;
  in_sites: number;
  out_sites: number;
  rating: number | null;
  pages: SitePage[] | null;
  in_links: SiteLink[] | null;
  out_links: SiteLink[] | null;
  ratings: Rating[] | null;
  /** crawl_status, errors and report are absent from older servers. */
  crawl_status?: SiteCrawlStatus;
  errors?: number;
  report?: CrawlReport | null;
  /** platform, platform_listed and platform_chosen say whether the site is a platform for this project, whether the list names it and whether a librarian chose; absent from older servers. */
  platform?: boolean;
  platform_listed?: boolean;
  platform_chosen?: boolean;
}

export interface SearchHit {
  url: string;
  site: string;
  title: string;
  score: number;
  /** relevance is score as 0–100 of the best hit of the query; absent from older servers. */
  relevance?: number;
  snippet: string;
  /** language is the page's language (ISO 639-1), "" when it was not told; absent from older servers. */
  language?: string;
}

/** SiteCount is one entry of the search's site facet. */
export interface SiteCount {
  site: string;
  count: number;
}

export interface SearchResult {
  total: number;
  took_ms: number;
  hits: SearchHit[] | null;
  /** facets are the sites with the most hits over all hits (not only this page), most first. */
  facets?: SiteCount[] | null;
  /** ignored are the query's words too common to search for, left out of the search. */
  ignored?: string[] | null;
}

/** SearchProblem is the data of a refused search: what is wrong and at which character (from 1). */
export interface SearchProblem {
  problem: 'empty' | 'syntax' | 'stop_words';
  position?: number;
}

export type ExportFormat = 'txt' | 'csv' | 'json' | 'yaml';
export type SeedMethod = 'communities' | 'importance';

export type LabExperiment = 'convergence' | 'windows' | 'normleak' | 'links';

/** LabJob is the status of one experiment run; done counts up to total. */
export interface LabJob {
  id: string;
  experiment: LabExperiment;
  /** state is running, done, failed or cancelled. */
  state: string;
  done: number;
  total: number;
  error: string;
  elapsed_sec: number;
  /** params are the parameters the run used, defaults filled in. */
  params: LabParams | null;
  files: string[] | null;
  /** summary sums the result up in a few lines once the run is done. */
  summary: string[] | null;
}

/** LabParams are an experiment's parameters, named like the CLI flags with underscores. */
export type LabParams = Record<string, string | number | boolean | string[]>;

/** Core is one bipartite core found by Extract-Seeds: its seed is one of its hubs. */
export interface Core {
  core: number;
  seed: string;
  site: string;
  hubs: string[] | null;
  authorities: string[] | null;
  cover_density: number;
  hub_score: number;
  /** hub_relative is hub_score as 0–100 of the highest hub score of the extraction; absent from older servers. */
  hub_relative?: number;
  /** off_main_eigenvector is set when hub_score is known and 0 to within 1e-20: the core lies off the main eigenvector of its HITS run. */
  off_main_eigenvector?: boolean;
}

/** CommunityParams choose the extractor: cover density, or fixed core size and new members. */
export interface CommunityParams {
  count: number;
  density?: number;
  core_size?: number;
  new_members?: number;
  min_hubs?: number;
  min_authorities?: number;
}

export interface GraphNode {
  site: string;
  opic: number;
  pagerank: number;
  /** core is the community index of the site, -1 when it is in no core. */
  core: number;
}

export interface GraphLink {
  source: string;
  target: string;
  weight: number;
}

export interface SiteGraph {
  /** total_sites is the number of sites in the project; nodes are the most important of them. */
  total_sites?: number;
  nodes: GraphNode[] | null;
  links: GraphLink[] | null;
}

/** LibrarianProfile is a named librarian of the project (no password: a desktop tool). */
export interface LibrarianProfile {
  name: string;
  created_at: string;
  /** ratings is the number of sites the librarian has rated. */
  ratings: number;
}

export type SelectionStatus = 'candidate' | 'nominated' | 'approved' | 'rejected';
export const SELECTION_STATUSES: SelectionStatus[] = ['candidate', 'nominated', 'approved', 'rejected'];

/** Selection is a site's selection state (Web Curator Tool / PANDAS fields). */
export interface Selection {
  site: string;
  status: SelectionStatus;
  note: string;
  subject: string;
  /** decided_by and decided_at say who last changed the status and when; empty while it never left candidate. */
  decided_by: string;
  decided_at?: string;
  /** nominated_by and nominated_at: who nominated the site and when ('' when no one did, or when unknown: see nominator_unknown). */
  nominated_by?: string;
  nominated_at?: string;
  /** nominator_unknown is true for a site approved before nominators were kept. */
  nominator_unknown?: boolean;
  approved_by?: string;
  approved_at?: string;
  /** rejected_by, rejected_at and rejected_reason: who rejected the site, when and why. */
  rejected_by?: string;
  rejected_at?: string;
  rejected_reason?: string;
}

/** Deliverable is one file of the Export page (GET /api/exports), with its file name per format. */
/** LeftOut is what an export leaves out (GET /api/export/{what}/left-out): how many sites, by reason, and in words ('' for none). */
export interface LeftOut {
  left_out: { reason: string; sites: number }[];
  text: string;
}

export interface Deliverable {
  what: string;
  title: string;
  purpose: string;
  formats: ExportFormat[];
  files: Record<string, string>;
  /** bom is whether its CSV file starts with a UTF-8 byte-order mark unless asked otherwise. */
  bom: boolean;
}

/** SelectedSeed is one site of GET /api/selection. */
export interface SelectedSeed extends Selection, Standing {
  seed_url: string;
  opic: number;
}

export type QueueOrder = 'importance' | 'community' | 'biased' | 'search';

/** QueueItem is one site of a librarian's review queue. */
export interface QueueItem extends Standing {
  site: string;
  opic: number;
  pagerank: number;
  pages: number;
  in_sites: number;
  out_sites: number;
  status: SelectionStatus;
  /** biased is the biased PageRank (order biased only). */
  biased?: number;
  /** community is the index of the site's community (order community only; absent for none). */
  community?: number;
  /** title and snippet are those of the site's best matching page (order search only). */
  title?: string;
  snippet?: string;
}

export interface ReviewQueue {
  librarian: string;
  order: QueueOrder;
  /** total counts every site the librarian has not rated (matching q). */
  total: number;
  rows: QueueItem[] | null;
  /** excluded counts the unrated sites left out for their crawl status (dead, robots-closed, errors-only); absent from older servers. */
  excluded?: number;
  /** platforms counts the unrated platform sites left out; absent from older servers. */
  platforms?: number;
}

export interface TopPage {
  url: string;
  title: string;
  /** text is an excerpt of the page's text. */
  text: string;
  depth: number;
  /** in_links counts the linking pages of other sites. */
  in_links: number;
}

export interface OPICPoint {
  /** pages is the number of crawled pages of the project when the snapshot was taken. */
  pages: number;
  at: string;
  opic: number;
}

export interface SiteCommunity {
  core: number;
  seed: string;
  role: 'hub' | 'authority';
}

export interface StoredRating extends Rating {
  site?: string;
}

/** ReviewPage is everything a librarian needs to judge one site. */
export interface ReviewPage extends Standing {
  site: string;
  opic: number;
  pagerank: number;
  pages_count: number;
  in_sites: number;
  out_sites: number;
  top_pages: TopPage[] | null;
  in_links: SiteLink[] | null;
  out_links: SiteLink[] | null;
  opic_series: OPICPoint[] | null;
  communities: SiteCommunity[] | null;
  selection: Selection;
  /** rating is the librarian's own rating, null before they rate. */
  rating: StoredRating | null;
  /** ratings are the other librarians' ratings: empty until the librarian has rated the site. */
  ratings: StoredRating[] | null;
  /** others_rated counts the other ratings withheld until then. */
  others_rated: number;
  /** archive is what imported archives and the Common Crawl graph say of the site; null when nothing. */
  archive?: SiteArchive | null;
}

/** RatingsImport is the outcome of an accepted ratings file. */
export interface RatingsImport {
  rows: number;
  added: number;
  changed: number;
  unchanged: number;
  new_librarians: string[] | null;
}

/** BadLine is one line of a refused ratings file. */
export interface BadLine {
  line: number;
  error: string;
}

/** RatingsRefusal is the data of the error envelope of a refused ratings file. */
export interface RatingsRefusal {
  bad_lines: BadLine[] | null;
  total_bad: number;
}

export interface AgreementRow {
  rater: string;
  kind: 'librarian' | 'measure';
  sites: number;
  score_pct: number | null;
  score_loo_pct: number | null;
  kappa_w: number | null;
  spearman: number | null;
  /** thresholds are, for a measure, the least values ranked 2, 3 and 4 (null for a rank no site got). */
  thresholds?: (number | null)[] | null;
  /** threshold_scores are the thresholds as 0–100 of the measure's top value over all sites; absent when unknown. */
  threshold_scores?: number[] | null;
  /** all_tied is set for a measure whose values cannot tell the rated sites apart (one tie group); kappa_w and spearman are then null. */
  all_tied?: boolean;
}

export interface Confusion {
  rater: string;
  kind: 'librarian' | 'measure';
  /** matrix[i][j] counts the sites of reference rank i+1 the rater ranked j+1. */
  matrix: number[][];
}

export interface Agreement {
  librarians: number;
  rated_sites: number;
  reference_sites: number;
  /** excluded counts the sites rated by a single librarian, left out everywhere. */
  excluded: number;
  bias?: number;
  favoured?: number;
  rows: AgreementRow[] | null;
  confusion?: Confusion | null;
  /** comparisons set Common Crawl's ranks beside sitesift's OPIC and PageRank; absent without Common Crawl ranks. */
  comparisons?: MeasureComparison[] | null;
}

/** MeasureComparison is app.MeasureComparison: two measures' orders over the sites both rank. */
export interface MeasureComparison {
  measure: string;
  with: string;
  sites: number;
  spearman: number | null;
  kendall_tau: number | null;
  top_k: number;
  top_k_overlap_pct: number | null;
}

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

/**
 * writeHeaders are the headers every write carries: the per-process token of
 * GET /api/session, which only the app's own pages can read (the server
 * refuses writes without it, so another web site cannot drive the app).
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
  return { 'X-Sitesift-Token': await session };
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
    throw new ApiError(env.error || `${method} ${path}: HTTP ${res.status}`, res.status, env.error_type || 'internal', env.data);
  }
  return env.data as T;
}

const enc = encodeURIComponent;

export const api = {
  project: (signal?: AbortSignal) => request<Project>('GET', '/api/project', undefined, signal),

  crawlStatus: (signal?: AbortSignal) => request<CrawlStatus>('GET', '/api/crawl', undefined, signal),
  startCrawl: (req: CrawlRequest) => request<CrawlStatus>('POST', '/api/crawl', req),
  pauseCrawl: () => request<CrawlStatus>('POST', '/api/crawl/pause'),
  resumeCrawl: () => request<CrawlStatus>('POST', '/api/crawl/resume'),
  stopCrawl: () => request<CrawlStatus>('POST', '/api/crawl/stop'),
  startRecrawl: (req: { proxy?: string }) => request<CrawlStatus>('POST', '/api/crawl/recrawl', req),
  siteRecrawls: (site: string, signal?: AbortSignal) =>
    request<SiteRecrawls>('GET', `/api/sites/${encodeURIComponent(site)}/recrawls`, undefined, signal),
  continuation: (signal?: AbortSignal) => request<Continuation>('GET', '/api/crawl/continuation', undefined, signal),
  crawlErrors: (p: { crawl?: number; site?: string; class?: string; offset: number; limit: number }, signal?: AbortSignal) =>
    request<CrawlErrors>('GET', `/api/crawl/errors${query(p)}`, undefined, signal),

  settings: (signal?: AbortSignal) => request<CrawlSettings>('GET', '/api/settings', undefined, signal),
  saveSettings: (change: SettingsChange) => request<CrawlSettings>('PUT', '/api/settings', change),

  warcs: (signal?: AbortSignal) => request<WarcFile[] | null>('GET', '/api/warcs', undefined, signal),
  warcURL: (name: string) => `/api/warcs/${enc(name)}`,

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
  ) => request<SiteList>('GET', `/api/sites${query(p)}`, undefined, signal),
  site: (site: string, librarian: string, signal?: AbortSignal) =>
    request<SiteDetail>('GET', `/api/sites/${enc(site)}${query({ librarian })}`, undefined, signal),
  /** rate stores a rating; a note replaces the stored one, no note (undefined) keeps it. */
  rate: (site: string, librarian: string, rating: number, note?: string) =>
    request<Rating>('PUT', `/api/sites/${enc(site)}/rating`, { librarian, rating, note }),
  unrate: (site: string, librarian: string) =>
    request<unknown>('DELETE', `/api/sites/${enc(site)}/rating${query({ librarian })}`),
  /** pageText is one crawled page with its main text and whole text. */
  pageText: (url: string, signal?: AbortSignal) => request<PageText>('GET', `/api/pages/text${query({ url })}`, undefined, signal),
  /** platforms counts the project's platform sites for the Crawl page. */
  platforms: (signal?: AbortSignal) => request<PlatformSummary>('GET', '/api/platforms', undefined, signal),
  /** setPlatform moves a site into (true) or out of (false) the project's platforms, whatever the list says. */
  setPlatform: (site: string, platform: boolean, librarian?: string) =>
    request<PlatformChoice>('PUT', `/api/sites/${enc(site)}/platform`, { platform, librarian: librarian || undefined }),
  /** note keeps a librarian's note on a site without touching their rating (a note alone has rating 0); '' removes it. */
  note: (site: string, librarian: string, note: string) => request<Rating>('PUT', `/api/sites/${enc(site)}/note`, { librarian, note }),

  /** exports lists the Export page's deliverables with this project's file names (top-K for count). */
  exports: (count: number, signal?: AbortSignal) => request<Deliverable[]>('GET', `/api/exports${query({ count })}`, undefined, signal),
  /** exportLeftOut tells how many sites a deliverable, with those parameters, leaves out and why. */
  exportLeftOut: (what: string, p: Record<string, string | number | undefined> = {}, signal?: AbortSignal) =>
    request<LeftOut>('GET', `/api/export/${enc(what)}/left-out${query(p)}`, undefined, signal),
  /** exportFileURL is one deliverable as a download. */
  exportFileURL: (what: string, format: string, p: Record<string, string | number | undefined> = {}) =>
    `/api/export/${enc(what)}${query({ format, ...p })}`,

  /** search finds the pages with every word; any: 1 finds those with any of them. */
  search: (p: { q: string; site?: string; offset: number; limit: number; any?: 1 }, signal?: AbortSignal) =>
    request<SearchResult>('GET', `/api/search${query(p)}`, undefined, signal),

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

  labStart: (experiment: LabExperiment, params: LabParams) => request<LabJob>('POST', `/api/lab/${enc(experiment)}`, params),
  labCancel: (id: string) => request<LabJob>('POST', `/api/lab/jobs/${enc(id)}/cancel`),
  labJob: (id: string, signal?: AbortSignal) => request<LabJob>('GET', `/api/lab/jobs/${enc(id)}`, undefined, signal),
  labSvgURL: (id: string) => `/api/lab/jobs/${enc(id)}/svg`,
  labCsvURL: (id: string) => `/api/lab/jobs/${enc(id)}/csv`,
  labFileURL: (id: string, name: string) => `/api/lab/jobs/${enc(id)}/files/${enc(name)}`,
  /** labSvg fetches a finished job's plot as text. */
  labSvg: async (id: string, signal?: AbortSignal) => (await fetchFile('GET', api.labSvgURL(id), undefined, signal)).text,

  librarians: (signal?: AbortSignal) => request<LibrarianProfile[] | null>('GET', '/api/librarians', undefined, signal),
  /** addLibrarian creates a profile, or returns the existing one of that name. */
  addLibrarian: (name: string) => request<LibrarianProfile>('POST', '/api/librarians', { name }),

  reviewQueue: (
    p: { librarian: string; order: QueueOrder; q?: string; limit?: number; bias?: number; includeFailed?: boolean; includePlatforms?: boolean },
    signal?: AbortSignal,
  ) => {
    const { includeFailed, includePlatforms, ...rest } = p;
    return request<ReviewQueue>(
      'GET',
      `/api/review/queue${query({ ...rest, include_failed: includeFailed ? 'true' : undefined, include_platforms: includePlatforms ? 'true' : undefined })}`,
      undefined,
      signal,
    );
  },
  review: (site: string, librarian: string, signal?: AbortSignal) =>
    request<ReviewPage>('GET', `/api/sites/${enc(site)}/review${query({ librarian })}`, undefined, signal),
  /** setSelection changes a site's selection; a note, subject or reason left undefined keeps the stored one. */
  setSelection: (site: string, body: { librarian: string; status: SelectionStatus; note?: string; subject?: string; reason?: string }) =>
    request<Selection>('PUT', `/api/sites/${enc(site)}/selection`, body),
  selection: (status: SelectionStatus, signal?: AbortSignal) =>
    request<SelectedSeed[] | null>('GET', `/api/selection${query({ status })}`, undefined, signal),
  selectionExportURL: (status: SelectionStatus, format: ExportFormat) => `/api/export/selection${query({ status, format })}`,

  /** importRatings sends a ratings CSV file; a refused file throws ApiError whose data is a RatingsRefusal. */
  importRatings: (file: ArrayBuffer | string, name: string) =>
    request<RatingsImport>('POST', `/api/ratings/import${query({ name })}`, new RawBody(file, 'text/csv; charset=utf-8')),
  ratingsFileURL: () => '/api/ratings/export',

  agreement: (p: { rater?: string; biased?: boolean }, signal?: AbortSignal) =>
    request<Agreement>('GET', `/api/agreement${query({ rater: p.rater, biased: p.biased ? 'true' : undefined })}`, undefined, signal),

  communities: (p: CommunityParams, signal?: AbortSignal) =>
    request<Core[] | null>('GET', `/api/communities${query({ ...p })}`, undefined, signal),
  graph: (p: CommunityParams & { limit: number }, signal?: AbortSignal) =>
    request<SiteGraph>('GET', `/api/graph${query({ ...p })}`, undefined, signal),
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
