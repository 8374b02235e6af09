// words() splits ASCII names with ASCII-only rules (a fast path for large specs): they must split every ASCII name
// exactly as the Unicode rules do. The reference below is those rules, applied to any name.
import { describe, expect, it } from 'vitest';
import { typeName, valueName, words } from '../../src/encode/identifier.js';

const unicodeWords = (name: string): string[] =>
  name
    .normalize('NFKC')
    .replace(/([\p{Ll}\p{Nd}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{Nd}]+/u)
    .filter((w) => w.length > 0);

/** A seeded generator, so a failure names a case that can be run again. */
function* asciiNames(seed: number, count: number): Generator<string> {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Weighted towards the characters that decide a split: case changes, digits, separators.
  const alphabet = 'aAbBzZ09_-. /$~{}XYZxyz';
  for (let i = 0; i < count; i++) {
    const length = Math.floor(next() * 16);
    let name = '';
    for (let j = 0; j < length; j++) name += next() < 0.8 ? alphabet[Math.floor(next() * alphabet.length)] : String.fromCharCode(32 + Math.floor(next() * 95));
    yield name;
  }
}

describe('words on ASCII names', () => {
  it('splits as the Unicode rules do, on 20,000 generated names and the usual shapes', () => {
    const names = [...asciiNames(31, 20_000), 'updateTag', 'HTMLParser', 'AiItem--Base', 'review-projects', 'v2Items', 'ABCdef', 'a1B2', '', '___', 'microsoft.graph.user', 'X-API-Key'];
    for (const name of names) expect([name, words(name)]).toEqual([name, unicodeWords(name)]);
  });

  it('still applies the Unicode rules to other names', () => {
    expect(words('ｆｕｌｌＷｉｄｔｈ')).toEqual(['full', 'Width']);
    expect(words('niñoÉtéName')).toEqual(unicodeWords('niñoÉtéName'));
    expect(typeName('über-item')).toBe('U' + 'fc'.toUpperCase() + 'berItem');
    expect(valueName('update_tag')).toBe('updateTag');
  });
});
