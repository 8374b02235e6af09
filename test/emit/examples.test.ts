// The committed examples (examples/, scripts/examples.ts) are what the CLI generates today: a change to an emitter
// or to the example's document without `npm run examples` fails here, with the file named.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, committedPath, generateExample } from '../../scripts/examples.js';

describe.each(EXAMPLES.map((e) => [e.name, e] as const))('examples/%s', (_name, example) => {
  it('matches what npm run generate writes for its document (npm run examples refreshes it)', () => {
    const generated = generateExample(example);
    expect([...generated.keys()]).toEqual(example.files);
    for (const [file, text] of generated) expect(readFileSync(committedPath(example, file), 'utf8'), `examples/${example.name}/${file} is stale`).toBe(text);
  }, 120_000);
});
