// @ts-check
// Whether a run of `npm run generate` has anything to do: the launcher (launch.js) asks before TypeScript loads,
// and the CLI (generate.ts) is handed the answer, or asks itself when started directly.
import { resolve } from 'node:path';
import { defaultStampDir, inputsKey, readStamp, upToDate } from '../write/up-to-date.js';

/**
 * @typedef {object} UnchangedRun
 * @property {number} started performance.now() when the run started (the summary line counts from it).
 * @property {string} stampDir
 * @property {import('../write/up-to-date.js').RunKey | undefined} run The inputs' key, or undefined when no stamp is
 *   kept (--check, a URL, a folder too large to hash).
 * @property {string[] | undefined} unchanged The output files, when the last run left everything as it is now.
 */

/**
 * @param {import('./options.js').GenerateOptions} options
 * @param {number} [started]
 * @returns {UnchangedRun}
 */
export function checkUnchangedRun(options, started = performance.now()) {
  const stampDir = resolve(options.cacheDir ?? defaultStampDir());
  if (options.check) return { started, stampDir, run: undefined, unchanged: undefined };
  const stamp = options.noCache ? undefined : readStamp(stampDir, options.out);
  const inputs = { specs: [options.spec, ...options.companions.map((c) => c.spec)], out: options.out, options: { policy: options.policy, json: options.json, companions: options.companions } };
  const run = inputsKey(inputs, stamp?.inputs);
  const unchanged = run === undefined || stamp === undefined ? undefined : upToDate(stampDir, run, stamp);
  return { started, stampDir, run, unchanged };
}

/**
 * The line an unchanged run prints.
 * @param {UnchangedRun & { unchanged: string[] }} result
 * @returns {string}
 */
export function unchangedLine(result) {
  return `0 written, ${result.unchanged.length} unchanged, 0 removed in ${Math.round(performance.now() - result.started)} ms (inputs and output as the last run left them; --no-cache generates anyway)`;
}
