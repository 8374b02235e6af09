// The one selection rule of a run's test cases (facts 2.17 "Launch"): options.test_case_ids (each must belong to the
// test set; duplicates count once) else every test case of the test set in grid order; then sub_sample_size (0 or
// absent: all) picks that many, reproducibly for one sub_sample_seed (a seeded shuffle; without a seed the launch
// draws one, so two launches may differ). The launch stores the chosen ids on the run, so the executor runs exactly
// what progress.total_test_cases counted even if the test set changes meanwhile.
import { randomInt } from 'node:crypto';
import { notFound } from '../errors.js';
import { liveWithField, type Json, type Store } from '../storage/store.js';
import { mulberry32 } from '../../data/prng.js';

/** Mutations have no meaning in the sandbox (it has none to apply): a simulation per case and iteration. */
export interface Selection {
  /** Test case ids in execution order. */
  caseIds: string[];
  iterations: number;
  /** The seed the sub-sample used (null when nothing was sub-sampled). */
  seed: number | null;
}


/** `size` of `ids` chosen by a seeded Fisher-Yates shuffle, kept in their original order. */
export function subSample(ids: readonly string[], size: number, seed: number): string[] {
  if (size <= 0 || size >= ids.length) return [...ids];
  // mulberry32: the same seed gives the same sub-sample on every instance.
  const next = mulberry32(seed);
  const order = ids.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const chosen = new Set(order.slice(0, size));
  return ids.filter((_, i) => chosen.has(i));
}

/** The test cases a launch runs (404 on options.test_case_ids[i] for an id that is not a case of the test set). */
export function selectCases(store: Store, org: string, testSetId: unknown, options: Json): Selection {
  // The platform's records hold no test case of the organization's test set.
  const cases = liveWithField(store, 'test_case', org, 'test_set_id', testSetId).sort((a, b) => Number(a.data.position ?? 0) - Number(b.data.position ?? 0) || a.seq - b.seq);
  let ids = cases.map((c) => c.id);
  if (Array.isArray(options.test_case_ids)) {
    const known = new Set(ids);
    for (const [i, id] of options.test_case_ids.entries()) if (!known.has(String(id))) throw notFound(`options.test_case_ids[${i}]`, 'test case');
    ids = [...new Set(options.test_case_ids.map(String))];
  }
  const size = typeof options.sub_sample_size === 'number' ? options.sub_sample_size : 0;
  let seed: number | null = null;
  // facts 2.17: test_case_ids excludes sub_sample_size (a named list is run whole).
  if (size > 0 && size < ids.length && !Array.isArray(options.test_case_ids)) {
    seed = typeof options.sub_sample_seed === 'number' ? options.sub_sample_seed : randomInt(0, 2 ** 31);
    ids = subSample(ids, size, seed);
  }
  const iterations = typeof options.iteration_count === 'number' ? options.iteration_count : 1;
  return { caseIds: ids, iterations, seed };
}
