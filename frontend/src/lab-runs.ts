// The experiment runs of the Lab page, kept outside the view: a run goes on
// (and is followed in the job feed) while the user looks at another page,
// and the last result of each experiment stays on screen after later runs.
//
// The server keeps one job at a time, so a finished run's plot and CSV are
// fetched as soon as it ends and kept here (and in sessionStorage, so a
// reload shows them too) rather than linked by job id, which a later run
// may replace.

import { api, ApiError, fetchFile, message, type LabExperiment, type LabJob, type LabParams } from './api';
import { jobFeed } from './job-feed';

export const EXPERIMENTS: readonly LabExperiment[] = ['convergence', 'windows', 'normleak', 'links'];

/** Run is one experiment run as the page shows it. */
export interface Run {
  experiment: LabExperiment;
  id: string;
  /** state is the job's state as the server says it, or 'starting' before it answered. */
  state: string;
  done: number;
  total: number;
  error: string;
  params: LabParams;
  started: number;
  finished: number;
  elapsedSec: number;
}

/** Result is the output of the last finished run of an experiment. */
export interface Result {
  id: string;
  /** params are the parameters the server used, its defaults filled in. */
  params: LabParams;
  finished: number;
  elapsedSec: number;
  summary: string[];
  /** svg is the plot's markup; the page shows it through an <img>, where no script in it runs. '' for an experiment that draws none (links). */
  svg: string;
  csv: string;
  /** tables are the CSV files of an experiment without a plot, by name: the page draws its tables from them. */
  tables?: Record<string, string>;
}

const STORE_KEY = 'sitesift.lab';
/** GONE is the error of a run whose job the server no longer knows. */
const GONE = 'The server no longer knows this job (was it restarted?).';

/** isFinal reports whether a job state is final: the job will not change any more. */
export function isFinal(state: string): boolean {
  return ['done', 'failed', 'error', 'cancelled', 'canceled'].includes(state);
}

function succeeded(job: LabJob): boolean {
  return job.state === 'done' && !job.error;
}

interface Saved {
  runs: Partial<Record<LabExperiment, Run>>;
  results: Partial<Record<LabExperiment, Result>>;
}

/**
 * LabRuns starts experiment runs and follows them in the job feed, one
 * 'change' event per update. At most one run is active (the server runs one
 * job at a time).
 */
class LabRuns extends EventTarget {
  readonly runs = new Map<LabExperiment, Run>();
  readonly results = new Map<LabExperiment, Result>();
  /** #applying is the handling of the last job status: each waits for the one before (a run's end fetches its files). */
  #applying: Promise<void> = Promise.resolve();

  constructor() {
    super();
    this.#restore();
    jobFeed.addEventListener('lab', () => this.#onFeed());
    this.#onFeed();
  }

  /** active is the run in progress, if any. */
  get active(): Run | null {
    for (const r of this.runs.values()) if (!isFinal(r.state)) return r;
    return null;
  }

  /**
   * start asks the server to run an experiment. A refusal (a bad parameter,
   * 409 while another job runs) ends the run as failed with the server's
   * message; only a run already active in this page is thrown.
   */
  async start(experiment: LabExperiment, params: LabParams): Promise<void> {
    if (this.active) throw new Error(`The ${this.active.experiment} experiment is still running.`);
    const run: Run = {
      experiment,
      id: '',
      state: 'starting',
      done: 0,
      total: 0,
      error: '',
      params,
      started: Date.now(),
      finished: 0,
      elapsedSec: 0,
    };
    this.runs.set(experiment, run);
    this.#changed();
    jobFeed.start();
    let job: LabJob;
    try {
      job = await api.labStart(experiment, params);
      this.runs.set(experiment, { ...run, id: String(job.id), state: 'queued', total: job.total, done: job.done });
    } catch (err) {
      this.runs.set(experiment, { ...run, state: 'failed', error: message(err), finished: Date.now() });
      this.#changed();
      return;
    }
    this.#changed();
    this.#apply(job);
    // The feed may have sent the run's later statuses, its end included, before the start's answer named its
    // job: they were not the active run's then, and the feed sends no status twice.
    const fed = 'lab' in jobFeed.jobs ? jobFeed.jobs.lab : null;
    if (fed && String(fed.id) === String(job.id)) this.#apply(fed);
  }

  /** cancel asks the server to stop the active run, and shows it cancelled once the server says it stopped. */
  async cancel(): Promise<void> {
    const run = this.active;
    if (!run?.id) return;
    try {
      this.#apply(await api.labCancel(run.id));
    } catch (err) {
      this.runs.set(run.experiment, { ...run, error: message(err) });
      this.#changed();
    }
  }

  /**
   * #onFeed follows the active run in the job feed, which sends the newest lab job: the run's own, or, once a
   * newer one started (from another page), the run's end is read from the server; none means the server was
   * restarted and lost it.
   */
  #onFeed(): void {
    const run = this.active;
    if (!run?.id || !('lab' in jobFeed.jobs)) return;
    const job = jobFeed.jobs.lab;
    if (job && job.id === run.id) {
      this.#apply(job);
      return;
    }
    if (job && Number(job.id) < Number(run.id)) return; // older news than the run's start
    const id = run.id;
    this.#applying = this.#applying.then(async () => {
      if (this.active?.id !== id) return;
      try {
        await this.#update(await api.labJob(id));
      } catch (err) {
        const r = this.active;
        if (r?.id === id && err instanceof ApiError && err.status === 404) this.#finish(r, { ...r, state: 'failed', error: GONE });
        // Another failure: the feed's next status tries again.
      }
    });
  }

  /** #apply handles a status of the active run's job after those before it. */
  #apply(job: LabJob): void {
    this.#applying = this.#applying.then(() => this.#update(job));
  }

  /** #update shows a status of the active run's job; at its end, it fetches what the run made. */
  async #update(job: LabJob): Promise<void> {
    const run = this.active;
    if (!run || run.id !== job.id) return;
    const next: Run = {
      ...run,
      state: job.state,
      done: job.done,
      total: job.total,
      error: job.error ?? '',
      elapsedSec: job.elapsed_sec ?? 0,
    };
    if (!isFinal(job.state)) {
      this.runs.set(run.experiment, next);
      this.#changed();
      return;
    }
    if (succeeded(job)) {
      const files = job.files ?? [];
      const plotted = files.some((f) => f.endsWith('.svg'));
      try {
        // The plot first: without it there is nothing to show. An
        // experiment without one is shown from its CSV files, all needed.
        const svg = plotted ? await api.labSvg(run.id) : '';
        const tables: Record<string, string> = {};
        if (!plotted) {
          for (const f of files.filter((f) => f.endsWith('.csv'))) tables[f] = (await fetchFile('GET', api.labFileURL(run.id, f))).text;
        }
        let csv = plotted ? '' : (tables[files.find((f) => f.endsWith('.csv')) ?? ''] ?? '');
        if (plotted) {
          try {
            csv = (await fetchFile('GET', api.labCsvURL(run.id))).text;
          } catch {
            /* the plot alone is still worth showing */
          }
        }
        this.results.set(run.experiment, {
          id: run.id,
          params: job.params ?? run.params,
          finished: Date.now(),
          elapsedSec: job.elapsed_sec ?? 0,
          summary: job.summary ?? [],
          svg,
          csv,
          ...(plotted ? {} : { tables }),
        });
      } catch (err) {
        next.state = 'failed';
        next.error = `the run ended, but its ${plotted ? 'plot' : 'files'} could not be fetched: ${message(err)}`;
      }
    } else if (job.state === 'cancelled') {
      next.error = ''; // the user asked for it: no error to show
    } else if (!next.error) {
      next.error = `the run ended in state "${job.state}"`;
    }
    this.#finish(run, next);
  }

  #finish(run: Run, next: Run): void {
    this.runs.set(run.experiment, { ...next, done: next.state === 'done' ? Math.max(next.done, next.total) : next.done, finished: Date.now() });
    this.#changed();
  }

  #changed(): void {
    this.#save();
    this.dispatchEvent(new Event('change'));
  }

  #save(): void {
    const saved: Saved = { runs: Object.fromEntries(this.runs), results: Object.fromEntries(this.results) };
    try {
      sessionStorage.setItem(STORE_KEY, JSON.stringify(saved));
    } catch {
      // Too large or storage disabled: keep the runs without their plots.
      try {
        sessionStorage.setItem(STORE_KEY, JSON.stringify({ runs: saved.runs, results: {} }));
      } catch {
        /* the runs then last as long as the page */
      }
    }
  }

  #restore(): void {
    let saved: Saved | null = null;
    try {
      saved = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? 'null') as Saved | null;
    } catch {
      saved = null;
    }
    if (!saved) return;
    for (const e of EXPERIMENTS) {
      const r = saved.runs?.[e];
      if (r && typeof r.state === 'string') this.runs.set(e, r);
      const res = saved.results?.[e];
      if (res && typeof res.svg === 'string') this.results.set(e, { ...res, summary: res.summary ?? [] });
    }
    const a = this.active;
    if (a && !a.id) this.runs.set(a.experiment, { ...a, state: 'failed', error: 'The page was reloaded before the server answered.' });
  }
}

export const labRuns = new LabRuns();
