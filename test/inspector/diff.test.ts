// The version diff the state view shows: leaf paths added, removed and changed between two versions.
import { describe, expect, it } from 'vitest';
import { diffJson } from '../../src/inspector/diff.js';

describe('diffJson', () => {
  it('lists changed, added and removed leaves by path, nothing for equal values', () => {
    const before = { prompt: 'a', metadata: { team: 'x', old: 1 }, tags: ['p', 'q'], same: { deep: [1] } };
    const after = { prompt: 'b', metadata: { team: 'x', new: true }, tags: ['p'], same: { deep: [1] } };
    expect(diffJson(before, after)).toEqual([
      { path: 'prompt', change: 'changed', before: '"a"', after: '"b"' },
      { path: 'metadata.new', change: 'added', after: 'true' },
      { path: 'metadata.old', change: 'removed', before: '1' },
      { path: 'tags[1]', change: 'removed', before: '"q"' },
    ]);
  });

  it('quotes property names that are not identifiers and compares empty containers', () => {
    expect(diffJson({ 'a-b': {} }, { 'a-b': { c: null } })).toEqual([
      { path: '["a-b"].c', change: 'added', after: 'null' },
      { path: '["a-b"]', change: 'removed', before: '{}' },
    ]);
    expect(diffJson({ x: 1 }, { x: 1 })).toEqual([]);
  });
});

describe('the order of a version diff', () => {
  it('lists the changes that matter first and the bookkeeping every version brings last', () => {
    const v1 = { name: 'agents/a/versions/1', ulid: 'U1', version_number: 1, create_time: '2026-01-01T00:00:00Z', prompt: 'hello', config: { temperature: 0.2 } };
    const v2 = { name: 'agents/a/versions/2', ulid: 'U2', version_number: 2, create_time: '2026-01-02T00:00:00Z', prompt: 'hi', config: { temperature: 0.5 } };
    expect(diffJson(v1, v2).map((r) => r.path)).toEqual(['prompt', 'config.temperature', 'name', 'ulid', 'version_number', 'create_time']);
  });
});
