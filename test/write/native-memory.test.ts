// The native libraries' allocator is told to return freed memory at once, through the environment it reads when it
// is loaded; a setting the user made in that environment wins.
import { afterEach, describe, expect, it } from 'vitest';
import { returnNativeMemoryPromptly } from '../../src/write/native-memory.js';

const NAMES = ['MIMALLOC_PURGE_DELAY', 'MIMALLOC_ARENA_EAGER_COMMIT'] as const;
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));

afterEach(() => {
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('returnNativeMemoryPromptly', () => {
  it('sets purging without delay and lazy arena commit when the environment says nothing', () => {
    for (const name of NAMES) delete process.env[name];
    returnNativeMemoryPromptly();
    expect(process.env.MIMALLOC_PURGE_DELAY).toBe('0');
    expect(process.env.MIMALLOC_ARENA_EAGER_COMMIT).toBe('0');
  });

  it('keeps the values the user set', () => {
    process.env.MIMALLOC_PURGE_DELAY = '25';
    process.env.MIMALLOC_ARENA_EAGER_COMMIT = '1';
    returnNativeMemoryPromptly();
    expect(process.env.MIMALLOC_PURGE_DELAY).toBe('25');
    expect(process.env.MIMALLOC_ARENA_EAGER_COMMIT).toBe('1');
  });
});
