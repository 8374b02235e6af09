// The bundled CLI the launcher of `npm run generate` runs: built from the current sources, never from older ones.
// (That it generates what the TypeScript sources generate, byte for byte, is test/cli/generate.test.ts's --check
// run over the committed generated/, which goes through the launcher.)
import { describe, expect, it } from 'vitest';
import { bundleFile, compiledCli } from '../../src/cli/compiled-cli.js';
import { sourceRecords } from '../../src/write/up-to-date.js';

describe('the bundled CLI', () => {
  it('is keyed by every source file: editing any one of them means another bundle', () => {
    const records = sourceRecords()!;
    const paths = Object.keys(records);
    expect(paths.some((p) => p.endsWith('generate.ts'))).toBe(true);
    expect(paths.some((p) => p.endsWith('pipeline.ts'))).toBe(true);
    const current = bundleFile(records);
    expect(bundleFile({ ...records })).toBe(current);
    for (const path of [paths[0]!, paths[paths.length - 1]!]) {
      expect(bundleFile({ ...records, [path]: { sha256: '0'.repeat(64) } })).not.toBe(current);
    }
  });

  it('loads as the CLI module', async () => {
    const cli = await compiledCli();
    expect(typeof cli?.runCli).toBe('function');
    expect(typeof cli?.main).toBe('function');
  });
});
