// Runs the official JSON Schema Test Suite (draft 2020-12, every case outside optional/, no exclusions, the
// remotes given as documents by their URL: remotes.ts) against the validator compiler:
// every group's schema is compiled to a module, the module is written to a temp dir and imported, and
// each test's data is checked with is() and validate().ok against the expected `valid`.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileValidatorModule, type SchemaNode } from '../../src/emit/validators/compile.js';
import { oracleDir } from '../support/oracles.js';
import { withMetaSchemas } from './meta-schemas.js';
import { loadRemotes } from './remotes.js';

/** The suite's draft2020-12 folder (JSTS_DIR, else ../shared/jsts/draft2020-12); undefined: skipped, said loudly. */
export const SUITE_DIR = oracleDir('jsts');

interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}
interface SuiteGroup {
  description: string;
  schema: SchemaNode;
  tests: SuiteTest[];
}

export interface FileResult {
  file: string;
  passed: number;
  failed: number;
}

export interface SuiteResult {
  passed: number;
  failed: number;
  files: FileResult[];
  failures: string[];
}

interface LoadedValidator {
  is(v: unknown): boolean;
  validate(v: unknown): { ok: boolean; errors?: { field: string | null; description: string }[] };
}

export async function runSuite(dir: string): Promise<SuiteResult> {
  const out = mkdtempSync(join(tmpdir(), 'jsts-'));
  const result: SuiteResult = { passed: 0, failed: 0, files: [], failures: [] };
  const remotes = loadRemotes(dir);
  try {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    let n = 0;
    for (const file of files) {
      const fr: FileResult = { file, passed: 0, failed: 0 };
      const groups = JSON.parse(readFileSync(join(dir, file), 'utf8')) as SuiteGroup[];
      for (const group of groups) {
        let v: LoadedValidator;
        try {
          const { js } = compileValidatorModule(withMetaSchemas(group.schema), [{ exportName: 'v', pointer: '#' }], { resources: remotes });
          const path = join(out, `g${n++}.mjs`);
          writeFileSync(path, js);
          v = ((await import(pathToFileURL(path).href)) as { v: LoadedValidator }).v;
        } catch (err) {
          fr.failed += group.tests.length;
          result.failures.push(`${file} | ${group.description} | compile/load error: ${(err as Error).message}`);
          continue;
        }
        for (const t of group.tests) {
          let problem: string | undefined;
          try {
            const is = v.is(t.data);
            const res = v.validate(t.data);
            if (is !== t.valid || res.ok !== t.valid) problem = `expected ${t.valid}, is() ${is}, validate().ok ${res.ok}`;
            // The error collector must independently find a reason (not the generic fallback).
            else if (!res.ok && (res.errors ?? []).some((e) => e.description === 'does not match the schema')) problem = 'error collector found no error';
          } catch (err) {
            problem = `threw ${(err as Error).message}`;
          }
          if (problem) {
            fr.failed++;
            result.failures.push(`${file} | ${group.description} | ${t.description}: ${problem}`);
          } else fr.passed++;
        }
      }
      result.files.push(fr);
      result.passed += fr.passed;
      result.failed += fr.failed;
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return result;
}

export function summaryLine(r: SuiteResult): string {
  return `JSON Schema Test Suite: ${r.passed} passed, ${r.failed} failed`;
}
