// The render cache: a second run takes rendered files from the cache and produces the same bytes; a changed
// source is rendered afresh; a damaged entry is ignored, never served.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EmittedFile } from '../../src/emit/emitted-file.js';
import { RenderCache } from '../../src/write/render-cache.js';
import { renderFiles } from '../../src/write/write.js';

const files: EmittedFile[] = [
  { path: 'pkg/values.ts', kind: 'module', contents: 'export const colours: readonly string[] = ["red","green"];\nexport type Colour = string;\n' },
  { path: 'pkg/README.md', kind: 'asset', contents: '# Package\n\nSome   text.\n' },
];

function entries(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json'));
}

describe('render cache', () => {
  it('serves a second run from the cache with byte-identical output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-cache-'));
    const uncached = await renderFiles(files, 'abc');
    const first = await renderFiles(files, 'abc', { cache: new RenderCache(dir) });
    expect(entries(dir)).toHaveLength(2);
    // Poison the cached rendering of the module: a hit must return what is stored (proving it is used)...
    const moduleEntry = entries(dir).map((name) => join(dir, name)).find((file) => readFileSync(file, 'utf8').includes('colours'))!;
    const stored = JSON.parse(readFileSync(moduleEntry, 'utf8')) as Record<string, string>;
    writeFileSync(moduleEntry, JSON.stringify({ ...stored, 'pkg/values.js': `${stored['pkg/values.js']}// from the cache\n` }));
    const second = await renderFiles(files, 'abc', { cache: new RenderCache(dir) });
    expect(first).toEqual(uncached);
    expect(second.get('pkg/values.js')).toContain('// from the cache');
    expect(second.get('pkg/README.md')).toBe(uncached.get('pkg/README.md'));
  });

  it('renders a changed source afresh and ignores a damaged entry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-cache-'));
    await renderFiles(files, 'abc', { cache: new RenderCache(dir) });
    for (const name of entries(dir)) writeFileSync(join(dir, name), '{ not json');
    const changed: EmittedFile[] = [{ ...files[0]!, contents: files[0]!.contents.replace('green', 'blue') }, files[1]!];
    const again = await renderFiles(changed, 'abc', { cache: new RenderCache(dir) });
    expect(again).toEqual(await renderFiles(changed, 'abc'));
    expect(again.get('pkg/values.js')).toContain("'blue'");
    expect(again.get('pkg/README.md')).toBe((await renderFiles(files, 'abc')).get('pkg/README.md'));
  });
});
