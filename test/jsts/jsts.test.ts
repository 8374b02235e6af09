// The official JSON Schema Test Suite (draft 2020-12) must pass completely: every case outside optional/, with
// the suite's remote documents given to the compiler by their URL (remotes.ts), nothing excluded.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileValidatorModule } from '../../src/emit/validators/compile.js';
import { loadRemotes, REMOTE_BASE } from './remotes.js';
import { runSuite, summaryLine, SUITE_DIR } from './run-suite.js';

const casesIn = (dir: string): number =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .reduce((n, f) => n + (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { tests: unknown[] }[]).reduce((m, g) => m + g.tests.length, 0), 0);

describe('JSON Schema Test Suite (draft 2020-12)', () => {
  it.skipIf(SUITE_DIR === undefined)('passes every test case outside optional/', async () => {
    const r = await runSuite(SUITE_DIR!);
    console.log(summaryLine(r));
    expect(r.failures).toEqual([]);
    expect(r.failed).toBe(0);
    expect(r.passed).toBe(casesIn(SUITE_DIR!));
  }, 300_000);

  it.skipIf(SUITE_DIR === undefined)('resolves a remote reference only from the documents it is given', () => {
    const schema = { $ref: `${REMOTE_BASE}draft2020-12/integer.json` };
    expect(() => compileValidatorModule(schema, [{ exportName: 'v', pointer: '#' }])).toThrow();
    const { js } = compileValidatorModule(schema, [{ exportName: 'v', pointer: '#' }], { resources: loadRemotes(SUITE_DIR!) });
    expect(js).toContain('integer');
  });
});
