// The committed bundle (src/sandbox/inspector/dist) is what `npm run build:inspector` makes from src/inspector
// today: a front-end change without a rebuild fails here.
import { describe, expect, it } from 'vitest';
import { buildInspector, staleFiles } from '../../scripts/build-inspector.js';
import { asset, ASSETS } from '../../src/sandbox/inspector/assets.js';

describe('inspector bundle', () => {
  it('is up to date with src/inspector (run npm run build:inspector when this fails)', async () => {
    const files = await buildInspector();
    expect(files.map((f) => f.name).sort()).toEqual(Object.keys(ASSETS).sort());
    expect(staleFiles(files)).toEqual([]);
  });

  it('is found relative to the serving module and references no other origin', () => {
    for (const name of Object.keys(ASSETS)) expect(asset(name)?.body.length).toBeGreaterThan(0);
    expect(asset('../handler.ts')).toBeNull();
    const html = asset('index.html')!.body;
    expect(html).toContain('/inspector/inspector.js');
    expect(html).not.toMatch(/https?:\/\//);
  });
});
