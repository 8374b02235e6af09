// The drills' value walks (drill/walk.ts) hold on any value a mutation can make: deep, shared or cyclic
// (seed 1020241059 made an object contain itself, and the fuzzer's recursive sanitize overflowed the stack).
import { describe, expect, it } from 'vitest';
import { mapStrings, visitObjects } from '../../drill/walk.js';

describe('visitObjects', () => {
  it('visits each object of a cyclic value once and may change it in place', () => {
    const inner: Record<string, unknown> = { url: 'https://example.com' };
    inner.self = inner;
    const root = { a: inner, b: [inner, { url: 'http://x' }] };
    const urls: unknown[] = [];
    const count = visitObjects(root, (node) => {
      if (!Array.isArray(node) && typeof node.url === 'string') {
        urls.push(node.url);
        node.url = 'http://127.0.0.1/receiver';
      }
    });
    expect(count).toBe(4); // root, inner, the array, the second url object
    expect(urls).toEqual(['https://example.com', 'http://x']);
    expect(inner.url).toBe('http://127.0.0.1/receiver');
  });

  it('walks a value 200,000 levels deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) as unknown;
    expect(visitObjects(deep, () => {})).toBe(200_000);
  });
});

describe('mapStrings', () => {
  it('maps strings, keeps keys (including __proto__) and the shape of shared and cyclic values', () => {
    const shared = { id: 'A1' };
    const cyclic: Record<string, unknown> = { id: 'A1', list: [shared, shared] };
    cyclic.me = cyclic;
    const source = JSON.parse('{"__proto__":"A1","n":1}') as Record<string, unknown>;
    const out = mapStrings({ cyclic, source, text: 'A1' }, (s) => (s === 'A1' ? 'Z9' : s));
    expect(out.text).toBe('Z9');
    expect(out.cyclic.id).toBe('Z9');
    expect(out.cyclic.me).toBe(out.cyclic);
    const list = out.cyclic.list as { id: string }[];
    expect(list[0]).toBe(list[1]);
    expect(list[0]!.id).toBe('Z9');
    expect(Object.getOwnPropertyDescriptor(out.source, '__proto__')?.value).toBe('Z9');
    expect(Object.getPrototypeOf(out.source)).toBe(Object.prototype);
    expect(shared.id).toBe('A1'); // the original is untouched
  });

  it('copies a value 200,000 levels deep', () => {
    const deep = JSON.parse(`${'[["x",'.repeat(1)}${'['.repeat(200_000)}"A1"${']'.repeat(200_000)}]]`) as unknown[];
    const out = mapStrings(deep, (s) => s.toLowerCase());
    let node: unknown = (out[0] as unknown[])[1];
    let levels = 0;
    while (Array.isArray(node)) {
      node = node[0];
      levels++;
    }
    expect(levels).toBe(200_000);
    expect(node).toBe('a1');
  });
});
