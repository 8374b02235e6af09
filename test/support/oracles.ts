// Where the test oracles kept outside the repository are: the JSON Schema Test Suite and the corpus of
// real-world specs. CI clones the repository beside a copy of `shared/`, so both are found at `../shared/...`
// from the repository root; an environment variable (JSTS_DIR, CORPUS_DIR) points anywhere else.
// When an oracle is missing: under CI (`CI=true`) that is an error (a green run must have checked it);
// elsewhere the caller skips, and the reason is printed loudly so a skip is never mistaken for a pass.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is test/support/oracles.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Oracle {
  /** The folder, when it exists. */
  dir?: string;
  /** Why it is missing (where it was looked for and how to point at it). */
  missing?: string;
}

const ORACLES = {
  jsts: { env: 'JSTS_DIR', relative: ['shared', 'jsts', 'draft2020-12'], what: 'the JSON Schema Test Suite (draft 2020-12 folder)' },
  corpus: { env: 'CORPUS_DIR', relative: ['shared', 'specs'], what: 'the corpus of real-world specs' },
} as const;

export type OracleName = keyof typeof ORACLES;

/** Finds an oracle; pure (no printing, no throwing) so callers decide how to report. */
export function findOracle(name: OracleName, env: NodeJS.ProcessEnv = process.env): Oracle {
  const o = ORACLES[name];
  const fromEnv = env[o.env];
  const dir = fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : join(REPO_ROOT, '..', ...o.relative);
  if (existsSync(dir)) return { dir };
  const how = fromEnv ? `${o.env}=${fromEnv} does not exist` : `${dir} does not exist and ${o.env} is not set`;
  return { missing: `${o.what} not found: ${how}` };
}

/**
 * The oracle's folder, or undefined after a loud warning; under CI a missing oracle throws, so the run fails.
 */
export function oracleDir(name: OracleName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const found = findOracle(name, env);
  if (found.dir) return found.dir;
  if (env.CI === 'true') throw new Error(`${found.missing} (CI=true: the oracle is required)`);
  console.warn(`\n*** SKIPPED: ${found.missing}. Set ${ORACLES[name].env} to run these checks. ***\n`);
  return undefined;
}
