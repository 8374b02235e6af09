/** Units of the report. `ops/s` and `req/s` are better higher; times and memory are better lower. */
export type Unit = 'ops/s' | 'req/s' | 's' | 'ms' | 'MB' | 'µs/call' | 'µs/req';

/** One line of the benchmark report: our implementation against one peer on one case. */
export interface Row {
  /** Bench group and case, e.g. `validators: persona body valid (is)`. The part before the first `:` names the bench. */
  name: string;
  unit: Unit;
  /** Median of the timed runs; null when ours failed (see `error`). */
  ours: number | null;
  /** Median of the timed runs; null when the peer failed. */
  peer: number | null;
  /** Peer library and version, e.g. `ajv 8.20.0`. */
  peer_name: string;
  /**
   * Above 1 means ours is better: ours / peer for throughput (`ops/s`, `req/s`), peer / ours for times and memory
   * (see `better`). Null when either side failed.
   */
  ratio: number | null;
  ours_min: number | null;
  ours_max: number | null;
  peer_min: number | null;
  peer_max: number | null;
  /** Which direction is better for `unit`; absent means `higher`. */
  better?: 'higher' | 'lower';
  /** Timed runs behind each median, when not the bench's usual count. */
  runs?: { ours: number; peer: number };
  /** Why a side has no figure (a failed run), or anything that makes the figure suspect (e.g. non-2xx answers). */
  error?: string;
  note?: string;
}

/** A stated performance target and whether this run met it (null: could not be measured). */
export interface Target {
  text: string;
  met: boolean | null;
  detail: string;
}

/** What a bench module returns: its rows, and optionally targets and Markdown notes for its report section. */
export interface BenchResult {
  rows: Row[];
  targets?: Target[];
  /** Markdown lines for the bench's section of bench/REPORT.md (method, caveats, breakdowns). */
  notes?: string[];
}

/** Command-line options of `npm run bench` that the benches read. */
export interface BenchOptions {
  /** Generation: timed runs per tool and input (default 3). */
  genRuns?: number;
  /** Generation: a tool stops early once its runs on one input add up to this many seconds (default 150). */
  genBudgetS?: number;
  /** Generation: inputs to run, of `spec`, `es` and `corpus` (default all). */
  genInputs?: string[];
  /** Sandbox: seconds per load-test measurement (default 3). */
  sandboxSeconds?: number;
  /** Sandbox: timed rounds per case (default 3). */
  sandboxRounds?: number;
  /**
   * `--smoke`: every case once with tiny durations (1 round, a few ms or a fraction of a second each), to prove that
   * every case runs and the peers agree; the figures mean nothing and no report is written.
   */
  smoke?: boolean;
}

/** A bench module: runs its cases and returns its rows. bench/run.ts calls each in turn. */
export interface Bench {
  name: string;
  run(options: BenchOptions): Promise<Row[] | BenchResult>;
}
