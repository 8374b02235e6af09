// Throughput harness: interleaved timed runs of synchronous functions, median of N runs.
//
// Each subject gets its own freshly compiled loop function (new Function), so V8's call-site feedback in
// one subject's loop is never shared with (and polluted by) another subject's: every loop stays monomorphic.

export interface Subject<I> {
  /** Called once per operation; returns a number that is folded into a sink so the work cannot be elided. */
  fn: (input: I) => number;
  input: I;
}

export interface Stats {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

export interface MeasureOptions {
  /** Timed runs per subject. */
  runs: number;
  /** Target duration of one run, in ms. */
  runMs: number;
  /** Untimed warm-up per subject before the timed runs, in ms. */
  warmupMs: number;
}

export const DEFAULT_MEASURE: MeasureOptions = { runs: 7, runMs: 300, warmupMs: 300 };

type Loop = (fn: (input: unknown) => number, input: unknown, batch: number, ms: number, now: () => number) => [number, number, number];

function makeLoop(): Loop {
  // Calls fn in batches of `batch`, reading the clock once per batch, until `ms` have elapsed.
  // Returns [operations, elapsed ms, sink].
  return new Function(
    'fn',
    'input',
    'batch',
    'ms',
    'now',
    `let n = 0, s = 0;
     const t0 = now();
     let t = t0;
     do {
       for (let i = 0; i < batch; i++) s += fn(input);
       n += batch;
       t = now();
     } while (t - t0 < ms);
     return [n, t - t0, s];`,
  ) as Loop;
}

/** Elapsed real time, in ms (the default clock). */
export const wallClock = (): number => performance.now();

/**
 * CPU time of this process (user + system), in ms. On a shared, busy machine this counts only the time the
 * benchmark actually ran, so ops/s figures are far less disturbed by other processes than with wall time
 * (cache and frequency effects remain).
 */
export const cpuClock = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

let sink = 0;
/** Keeps the accumulated results observable. */
export function consumeSink(): number {
  return sink;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface Prepared {
  loop: Loop;
  subject: Subject<unknown>;
  batch: number;
  samples: number[];
}

/**
 * Measures every subject of every group: warm-up, then `runs` rounds; in each round every subject runs once,
 * groups in order and the subjects of a group in an order rotated by the round, so no subject always runs first.
 * Returns ops/s statistics in the same shape as the input.
 */
export function measureInterleaved<K extends string>(
  groups: Array<Record<K, Subject<any>>>,
  options: MeasureOptions = DEFAULT_MEASURE,
  clock: () => number = wallClock,
): Array<Record<K, Stats>> {
  const now = clock;
  const prepared: Array<Record<K, Prepared>> = groups.map((g) => {
    const out = {} as Record<K, Prepared>;
    for (const k of Object.keys(g) as K[]) {
      const p: Prepared = { loop: makeLoop(), subject: g[k], batch: 1, samples: [] };
      // Calibrate (on the cheap wall clock): a batch of about 0.2 ms keeps wall-clock reads negligible; the
      // CPU clock is a system call (about a microsecond), so it gets batches of about 2 ms.
      const [n, el, s] = p.loop(p.subject.fn, p.subject.input, 1, 20, wallClock);
      sink += s;
      p.batch = Math.max(1, Math.round((n / el) * (clock === wallClock ? 0.2 : 2)));
      out[k] = p;
    }
    return out;
  });

  for (const g of prepared) {
    for (const p of Object.values(g) as Prepared[]) {
      const [, , s] = p.loop(p.subject.fn, p.subject.input, p.batch, options.warmupMs, now);
      sink += s;
    }
  }

  for (let round = 0; round < options.runs; round++) {
    for (const g of prepared) {
      const ps = Object.values(g) as Prepared[];
      for (let j = 0; j < ps.length; j++) {
        const p = ps[(j + round) % ps.length]!;
        const [n, el, s] = p.loop(p.subject.fn, p.subject.input, p.batch, options.runMs, now);
        sink += s;
        p.samples.push((n / el) * 1000);
      }
    }
  }

  return prepared.map((g) => {
    const out = {} as Record<K, Stats>;
    for (const k of Object.keys(g) as K[]) {
      const xs = g[k].samples;
      out[k] = { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), samples: xs };
    }
    return out;
  });
}
