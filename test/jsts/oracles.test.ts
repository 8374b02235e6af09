// The oracles outside the repository are found relative to it or through an environment variable, and a
// missing one fails CI instead of passing silently.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { findOracle, oracleDir } from '../support/oracles.js';

const dir = mkdtempSync(join(tmpdir(), 'oracle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('test oracles', () => {
  it('takes the folder an environment variable names', () => {
    expect(findOracle('jsts', { JSTS_DIR: dir })).toEqual({ dir });
    expect(findOracle('corpus', { CORPUS_DIR: dir })).toEqual({ dir });
  });

  it('says where it looked when the folder is missing', () => {
    const missing = join(dir, 'nope');
    expect(findOracle('corpus', { CORPUS_DIR: missing }).missing).toContain(`CORPUS_DIR=${missing} does not exist`);
  });

  it('fails under CI and skips loudly elsewhere', () => {
    const env = { JSTS_DIR: join(dir, 'nope') };
    expect(() => oracleDir('jsts', { ...env, CI: 'true' })).toThrow(/CI=true: the oracle is required/);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(oracleDir('jsts', env)).toBeUndefined();
    expect(warn.mock.calls[0]![0]).toMatch(/SKIPPED: the JSON Schema Test Suite/);
    warn.mockRestore();
  });
});
