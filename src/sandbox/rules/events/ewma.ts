// EWMA statistics of a baseline (see update-baselines.ts for the documented formula): the observations a
// baseline keeps in its internal data, the fold that turns them into mean / sigma, and the sigma bands.
import { isJsonObject, type Json } from '../../storage/store.js';

/** Smoothing constant of the EWMA (weight of the newest observation). */
export const ALPHA = 0.3;

/** Observations kept per baseline; older ones are folded into `_ewma_seed` and leave the history. */
export const MAX_OBSERVATIONS = 10_000;

/** One run folded into a baseline (internal data `_observations`, oldest first; never presented). */
export interface Observation {
  run_id: string;
  /** The run's completion time (ISO). */
  at: string;
  /** The observed value: the mean of the run's results for the metric. */
  value: number;
  /** The estimates after folding this observation in. */
  mean: number;
  sigma: number;
  /** Whether the value lay beyond sigma_threshold sigmas (in the baseline's direction) of the estimates before it. */
  anomaly: boolean;
}

/** The state of the estimates: mean, variance and how many observations made them. */
export interface EwmaState {
  mean: number;
  variance: number;
  count: number;
}

export const EMPTY: EwmaState = { mean: 0, variance: 0, count: 0 };

/** Folds one value into the state: the first initialises mean = x, variance = 0. */
export function fold(state: EwmaState, x: number, alpha = ALPHA): EwmaState {
  if (state.count === 0) return { mean: x, variance: 0, count: 1 };
  const d = x - state.mean;
  return { mean: state.mean + alpha * d, variance: (1 - alpha) * (state.variance + alpha * d * d), count: state.count + 1 };
}

export type Direction = 'BOTH' | 'ABOVE' | 'BELOW';
const DIRECTIONS: readonly Direction[] = ['BOTH', 'ABOVE', 'BELOW'];

/** Whether x is an anomaly against the state: beyond threshold sigmas in the direction; needs sigma > 0. */
export function isAnomaly(state: EwmaState, x: number, threshold: number, direction: Direction): boolean {
  const sigma = Math.sqrt(state.variance);
  if (state.count === 0 || !(sigma > 0)) return false;
  const above = x > state.mean + threshold * sigma;
  const below = x < state.mean - threshold * sigma;
  return direction === 'ABOVE' ? above : direction === 'BELOW' ? below : above || below;
}

function seedOf(data: Json): EwmaState {
  const s = data._ewma_seed;
  if (!isJsonObject(s) || typeof s.mean !== 'number' || typeof s.variance !== 'number' || typeof s.count !== 'number') return EMPTY;
  return { mean: s.mean, variance: s.variance, count: s.count };
}

export function observationsOf(data: Json): Observation[] {
  return Array.isArray(data._observations) ? (data._observations as Observation[]) : []; // the sandbox's own field, written only by observe()
}

/** The state from the seed and the observations, leaving out one run (to judge that run against the rest). */
export function stateOf(data: Json, excludeRunId?: string): EwmaState {
  let state = seedOf(data);
  for (const o of observationsOf(data)) if (o.run_id !== excludeRunId) state = fold(state, o.value);
  return state;
}

/**
 * Records `value` of run `runId` completed at `at` (replacing an earlier observation of the same run), keeps
 * the observations in completion order, refolds them all, and writes the presented statistics.
 */
export function observe(data: Json, runId: string, at: string, value: number, now: string): void {
  const threshold = typeof data.sigma_threshold === 'number' ? data.sigma_threshold : 2;
  const direction = DIRECTIONS.find((d) => d === data.direction) ?? 'BOTH';
  const list = observationsOf(data).filter((o) => o.run_id !== runId);
  let index = list.length;
  while (index > 0 && list[index - 1]!.at > at) index--;
  list.splice(index, 0, { run_id: runId, at, value, mean: 0, sigma: 0, anomaly: false });
  let seed = seedOf(data);
  while (list.length > MAX_OBSERVATIONS) seed = fold(seed, list.shift()!.value);
  let state = seed;
  for (const o of list) {
    o.anomaly = isAnomaly(state, o.value, threshold, direction);
    state = fold(state, o.value);
    o.mean = state.mean;
    o.sigma = Math.sqrt(state.variance);
  }
  data._observations = list;
  if (seed.count > 0) data._ewma_seed = seed;
  data.baseline_float = state.mean;
  data.baseline_sigma = Math.sqrt(state.variance);
  data.observation_count = state.count;
  data.last_processed_run_completed_at = list.length > 0 ? list[list.length - 1]!.at : (data.last_processed_run_completed_at ?? null);
  data.last_updated_at = now;
  data.sigma_bands = sigmaBands(data, DEFAULT_SIGMA_LEVELS);
}

export const DEFAULT_SIGMA_LEVELS: readonly number[] = [1, 2];

/** `upper_<n>sigma` / `lower_<n>sigma` for each level n (n as JavaScript prints it: 1, 1.5); null without statistics. */
export function sigmaBands(data: Json, levels: readonly number[]): Record<string, number> | null {
  const count = typeof data.observation_count === 'number' ? data.observation_count : 0;
  const mean = data.baseline_float;
  const sigma = data.baseline_sigma;
  if (count <= 0 || typeof mean !== 'number' || typeof sigma !== 'number') return null;
  const bands: Record<string, number> = {};
  for (const n of levels) {
    Object.defineProperty(bands, `upper_${n}sigma`, { value: mean + n * sigma, enumerable: true, writable: true, configurable: true });
    Object.defineProperty(bands, `lower_${n}sigma`, { value: mean - n * sigma, enumerable: true, writable: true, configurable: true });
  }
  return bands;
}
