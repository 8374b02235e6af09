// Seeded randomness for the drills: every generated request is a function of (run seed, request number), so a
// run is reproducible with `--seed` whatever the scheduling of concurrent requests.

import { mulberry32 } from '../src/conformance/values/index.js';

export { mulberry32 };

/** A 32-bit seed from several numbers (FNV-1a over their decimal text). */
export function mix(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join(':')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  range(min: number, maxInclusive: number): number {
    return min + this.int(maxInclusive - min + 1);
  }
  bool(p = 0.5): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)]!;
  }
  /** Picks by weight: `[[weight, value], ...]`. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    const total = items.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of items) {
      r -= w;
      if (r < 0) return v;
    }
    return items[items.length - 1]![1];
  }
  /** Letters and digits. */
  word(length: number): string {
    const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let out = '';
    for (let i = 0; i < length; i++) out += chars[this.int(chars.length)];
    return out;
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}
