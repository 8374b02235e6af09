// Generation lets go of what it no longer needs (issue 31: peak memory on big specs). What a user relies on is that
// letting go changes nothing of the result: a handed-over output map is written in full and emptied, files no longer
// generated are still removed, and emitAll in hand-only mode hands the renderer every file it would have returned.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emitAll } from '../../src/emit/index.js';
import type { EmittedFile } from '../../src/emit/emitted-file.js';
import { buildNames } from '../../src/emit/naming.js';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import { writeOutput } from '../../src/write/write.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'release-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('writeOutput with release', () => {
  it('writes every file, empties the map it was handed, and still removes what is no longer generated', async () => {
    mkdirSync(join(root, 'client'), { recursive: true });
    writeFileSync(join(root, 'client', 'old.js'), 'stale\n');
    writeFileSync(join(root, 'client', 'same.js'), 'same\n');
    const rendered = new Map([
      ['client/a.js', 'a\n'],
      ['client/same.js', 'same\n'],
      ['client/deep/b.d.ts', 'b\n'],
    ]);
    const result = await writeOutput(root, rendered, { check: false, release: true });
    expect(rendered.size).toBe(0);
    expect(result.written.sort()).toEqual(['client/a.js', 'client/deep/b.d.ts']);
    expect(result.unchanged).toEqual(['client/same.js']);
    expect(result.removed).toEqual(['client/old.js']);
    expect(readFileSync(join(root, 'client', 'deep', 'b.d.ts'), 'utf8')).toBe('b\n');
    expect(existsSync(join(root, 'client', 'old.js'))).toBe(false);
  });

  it('in check mode reports the same stale files as without release, and writes nothing', async () => {
    mkdirSync(join(root, 'client'), { recursive: true });
    writeFileSync(join(root, 'client', 'old.js'), 'stale\n');
    const files: [string, string][] = [['client/a.js', 'a\n']];
    const kept = await writeOutput(root, new Map(files), { check: true });
    const released = await writeOutput(root, new Map(files), { check: true, release: true });
    expect(released).toEqual(kept);
    expect(released.stale.sort()).toEqual(['client/a.js (missing)', 'client/old.js (no longer generated)']);
    expect(existsSync(join(root, 'client', 'a.js'))).toBe(false);
  });
});

describe('emitAll handOnly', () => {
  it('hands over exactly the files a normal run returns, and keeps none', async () => {
    const docs = await loadSpecs(join(import.meta.dirname, '..', '..', 'spec'), { policy: 'lenient' });
    const model = buildModel(docs, { policy: 'lenient' });
    const all = emitAll(model, buildNames(model), { documents: docs });
    const handed: EmittedFile[] = [];
    const returned = emitAll(model, buildNames(model), { documents: docs, onFiles: (files) => handed.push(...files), handOnly: true });
    expect(returned).toEqual([]);
    expect(handed.map((f) => f.path)).toEqual(all.map((f) => f.path));
    expect(handed).toEqual(all);
  });
});
