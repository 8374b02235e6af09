// The unchanged-spec shortcut: a run whose inputs and output are as the last run left them is recognised, and
// anything that would make a real run produce different bytes (a spec edit, even in a file only referenced, an
// option, an edited, missing or extra output file) is not; also when the edit keeps the file's size and its
// modification time.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { inputsKey, readStamp, recordRun, upToDate, type RunInputs, type RunKey } from '../../src/write/up-to-date.js';

let root: string;
let inputs: RunInputs;
const stamps = (): string => join(root, 'cache');
const OUTPUT = ['client/types.d.ts', 'client/types.js'];

/**
 * Lets the files written so far grow old enough for their stat to be trusted (a file's change time cannot be set
 * back, so the test waits; the shortcut trusts a stat taken 100 ms after the file last changed).
 */
const settle = (): Promise<void> => new Promise((done) => setTimeout(done, 250));
/** A modification time that can be put back exactly (whole seconds). */
const PAST = new Date('2024-01-02T03:04:05Z');

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

/** Keys the inputs as a run does (with the last stamp's records) and records the output. */
function record(): RunKey {
  const run = inputsKey(inputs, readStamp(stamps(), inputs.out)?.inputs)!;
  recordRun(stamps(), run, OUTPUT);
  return run;
}

/** What a run finds now: the output files when nothing is to be done, else undefined. */
function check(): string[] | undefined {
  const stamp = readStamp(stamps(), inputs.out);
  const run = inputsKey(inputs, stamp?.inputs);
  return run === undefined ? undefined : upToDate(stamps(), run, stamp);
}

describe('up-to-date shortcut', () => {
  it('recognises an untouched run', () => {
    const run = record();
    expect(inputsKey(inputs)!.key).toBe(run.key);
    expect(check()).toEqual(OUTPUT);
  });

  it('sees a change to any spec file, including one that is only referenced', () => {
    const run = record();
    writeFileSync(join(root, 'spec', '_shared.yaml'), 'components: { schemas: {} }\n');
    const changed = inputsKey(inputs, readStamp(stamps(), inputs.out)?.inputs)!;
    expect(changed.key).not.toBe(run.key);
    expect(upToDate(stamps(), changed)).toBeUndefined();
  });

  it('sees a different option or output folder', () => {
    const run = record();
    expect(inputsKey({ ...inputs, options: { policy: 'lenient' } })!.key).not.toBe(run.key);
    expect(inputsKey({ ...inputs, out: join(root, 'elsewhere') })!.key).not.toBe(run.key);
  });

  it('sees an edited, missing or extra output file', () => {
    record();
    writeFileSync(join(root, 'out', 'client', 'types.js'), 'export {}; // edited\n');
    expect(check()).toBeUndefined();
    record();
    writeFileSync(join(root, 'out', 'client', 'stray.js'), '');
    expect(check()).toBeUndefined();
    rmSync(join(root, 'out', 'client', 'stray.js'));
    expect(check()).toEqual(OUTPUT);
    rmSync(join(root, 'out', 'client', 'types.js'));
    expect(check()).toBeUndefined();
  });

  it('sees a file in a subfolder of a package that the last run did not write', () => {
    record();
    mkdirSync(join(root, 'out', 'client', 'deep', 'er'), { recursive: true });
    expect(check()).toEqual(OUTPUT); // an empty folder is nothing a run would remove
    writeFileSync(join(root, 'out', 'client', 'deep', 'er', 'stray.d.ts'), '');
    expect(check()).toBeUndefined();
  });

  it('keeps the stat of files old enough to trust it, and hashes the rest', async () => {
    await settle();
    const fresh = join(root, 'spec', 'tags.yaml');
    writeFileSync(fresh, 'openapi: 3.1.1\n'); // written just now: its stat is not trusted yet
    record();
    const stamp = readStamp(stamps(), inputs.out)!;
    for (const path of OUTPUT) expect(stamp.files[path]!.stat).toBeDefined();
    expect(stamp.inputs[fresh]!.stat).toBeUndefined();
    expect(stamp.inputs[join(root, 'spec', '_shared.yaml')]!.stat).toBeDefined();
    // A check that had to hash a file records its stat once it can be trusted, so the next run need not.
    await settle();
    expect(check()).toEqual(OUTPUT);
    expect(readStamp(stamps(), inputs.out)!.inputs[fresh]!.stat).toBeDefined();
  });

  it('sees an output file edited to the same size with its modification time put back', async () => {
    const types = join(root, 'out', 'client', 'types.js');
    utimesSync(types, PAST, PAST);
    await settle();
    record();
    expect(readStamp(stamps(), inputs.out)!.files['client/types.js']!.stat).toBeDefined();
    const before = statSync(types);
    writeFileSync(types, 'export {}:\n'); // same length, different bytes
    utimesSync(types, PAST, PAST);
    expect(statSync(types).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(types).size).toBe(before.size);
    expect(check()).toBeUndefined();
  });

  it('sees a same-size edit to a spec file with its modification time put back', async () => {
    const spec = join(root, 'spec', '_shared.yaml');
    utimesSync(spec, PAST, PAST);
    await settle();
    const run = record();
    expect(readStamp(stamps(), inputs.out)!.inputs[spec]!.stat).toBeDefined();
    const before = statSync(spec);
    writeFileSync(spec, 'components: []\n');
    utimesSync(spec, PAST, PAST);
    expect(statSync(spec).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(spec).size).toBe(before.size);
    expect(inputsKey(inputs, readStamp(stamps(), inputs.out)?.inputs)!.key).not.toBe(run.key);
    expect(check()).toBeUndefined();
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
    record();
    for (const name of readdirSync(stamps())) writeFileSync(join(stamps(), name), '{ not json');
    expect(check()).toBeUndefined();
  });
});
