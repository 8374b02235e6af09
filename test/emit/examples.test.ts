// The committed examples (examples/, scripts/examples.ts) are what the CLI generates today: a change to an emitter
// or to the example's document without `npm run examples` fails here, with the file named; so does a file in an
// example's folder that the example does not list (a stray copy would read as generated output).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, committedPath, generateExample } from '../../scripts/examples.js';

/** Every file under `dir`, as paths relative to it with `/` separators, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

describe.each(EXAMPLES.map((e) => [e.name, e] as const))('examples/%s', (_name, example) => {
  it('matches what npm run generate writes for its document (npm run examples refreshes it)', () => {
    const generated = generateExample(example);
    expect([...generated.keys()]).toEqual(example.files);
    for (const [file, text] of generated) expect(readFileSync(committedPath(example, file), 'utf8'), `examples/${example.name}/${file} is stale`).toBe(text);
  }, 120_000);

  it('holds exactly the files the example lists, nothing stray', () => {
    const folder = committedPath(example, '.');
    expect(filesUnder(folder), `examples/${example.name}/ holds files the example does not list (or lacks listed ones)`).toEqual([...example.files].sort());
  });
});
