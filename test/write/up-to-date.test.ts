// The unchanged-spec shortcut: a run whose inputs and output are as the last run left them is recognised, and
// anything that would make a real run produce different bytes (a spec edit, even in a file only referenced, an
// option, an edited, missing or extra output file) is not.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { inputsKey, recordRun, upToDate, type RunInputs } from '../../src/write/up-to-date.js';

let root: string;
let inputs: RunInputs;
const stamps = (): string => join(root, 'cache');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'up-to-date-'));
  mkdirSync(join(root, 'spec'));
  writeFileSync(join(root, 'spec', 'tags.yaml'), 'openapi: 3.1.0\n');
  writeFileSync(join(root, 'spec', '_shared.yaml'), 'components: {}\n');
  mkdirSync(join(root, 'out', 'client'), { recursive: true });
  writeFileSync(join(root, 'out', 'client', 'types.d.ts'), 'export type A = string;\n');
  writeFileSync(join(root, 'out', 'client', 'types.js'), 'export {};\n');
  inputs = { specs: [join(root, 'spec')], out: join(root, 'out'), options: { policy: 'strict' } };
});

function record(): string {
  const key = inputsKey(inputs)!;
  recordRun(stamps(), key, inputs.out, ['client/types.d.ts', 'client/types.js']);
  return key;
}

describe('up-to-date shortcut', () => {
  it('recognises an untouched run', () => {
    const key = record();
    expect(inputsKey(inputs)).toBe(key);
    expect(upToDate(stamps(), key, inputs.out)).toEqual(['client/types.d.ts', 'client/types.js']);
  });

  it('sees a change to any spec file, including one that is only referenced', () => {
    const key = record();
    writeFileSync(join(root, 'spec', '_shared.yaml'), 'components: { schemas: {} }\n');
    const changed = inputsKey(inputs)!;
    expect(changed).not.toBe(key);
    expect(upToDate(stamps(), changed, inputs.out)).toBeUndefined();
  });

  it('sees a different option or output folder', () => {
    const key = record();
    expect(inputsKey({ ...inputs, options: { policy: 'lenient' } })).not.toBe(key);
    expect(inputsKey({ ...inputs, out: join(root, 'elsewhere') })).not.toBe(key);
  });

  it('sees an edited, missing or extra output file', () => {
    const key = record();
    writeFileSync(join(root, 'out', 'client', 'types.js'), 'export {}; // edited\n');
    expect(upToDate(stamps(), key, inputs.out)).toBeUndefined();
    record();
    writeFileSync(join(root, 'out', 'client', 'stray.js'), '');
    expect(upToDate(stamps(), key, inputs.out)).toBeUndefined();
    rmSync(join(root, 'out', 'client', 'stray.js'));
    expect(upToDate(stamps(), key, inputs.out)).toEqual(['client/types.d.ts', 'client/types.js']);
    rmSync(join(root, 'out', 'client', 'types.js'));
    expect(upToDate(stamps(), key, inputs.out)).toBeUndefined();
  });

  it('never reads a spec file larger than the loader accepts (the loader refuses it by its size)', () => {
    const huge = join(root, 'spec', 'huge.yaml');
    writeFileSync(huge, '');
    truncateSync(huge, 33 * 1024 * 1024); // sparse: sized past the 32 MiB limit without writing it
    expect(inputsKey(inputs)).toBeUndefined();
  });

  it('has no shortcut for a URL or a missing spec', () => {
    expect(inputsKey({ ...inputs, specs: ['https://api.example.com/v1'] })).toBeUndefined();
    expect(inputsKey({ ...inputs, specs: [join(root, 'nothing-here')] })).toBeUndefined();
  });

  it('treats a damaged stamp as no stamp', () => {
    const key = record();
    for (const name of readdirSync(stamps())) writeFileSync(join(stamps(), name), '{ not json');
    expect(upToDate(stamps(), key, inputs.out)).toBeUndefined();
  });
});
