import type { Context } from './context.js';
import { cpLength, regex } from './text.js';

// Pattern strings: a generator for the regex subset OpenAPI documents use -----------------------------------

export type RNode =
  | { k: 'set'; ranges: [number, number][] }
  | { k: 'seq'; items: RNode[] }
  | { k: 'alt'; alts: RNode[] }
  | { k: 'group'; body: RNode; index: number }
  | { k: 'rep'; body: RNode; min: number; max: number }
  | { k: 'assert'; kind: string }
  | { k: 'backref'; index: number | string };

export const MAXCP = 0x10ffff;
export const DIGIT: [number, number][] = [[48, 57]];
export const WORD: [number, number][] = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
export const SPACE: [number, number][] = [
  [9, 13],
  [32, 32],
  [160, 160],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
export const LINE_TERMINATORS: [number, number][] = [
  [10, 10],
  [13, 13],
  [0x2028, 0x2029],
];

export function normalizeRanges(r: [number, number][]): [number, number][] {
  const sorted = [...r].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

export function complement(r: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [a, b] of normalizeRanges(r)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAXCP) out.push([next, MAXCP]);
  return out;
}

export class RegexParser {
  private i = 0;
  private groups = 0;
  private readonly names = new Map<string, number>();
  private readonly cps: string[];
  constructor(source: string) {
    this.cps = [...source];
  }
  parse(): RNode {
    const node = this.alt();
    if (this.i < this.cps.length) throw new Error('unbalanced )');
    return node;
  }
  private peek(off = 0): string | undefined {
    return this.cps[this.i + off];
  }
  private alt(): RNode {
    const alts: RNode[] = [this.seq()];
    while (this.peek() === '|') {
      this.i++;
      alts.push(this.seq());
    }
    return alts.length === 1 ? alts[0]! : { k: 'alt', alts };
  }
  private seq(): RNode {
    const items: RNode[] = [];
    while (this.i < this.cps.length && this.peek() !== '|' && this.peek() !== ')') {
      let atom = this.atom();
      atom = this.quantifier(atom);
      items.push(atom);
    }
    return { k: 'seq', items };
  }
  private atom(): RNode {
    const c = this.cps[this.i++]!;
    switch (c) {
      case '^':
        return { k: 'assert', kind: '^' };
      case '$':
        return { k: 'assert', kind: '$' };
      case '.':
        return { k: 'set', ranges: complement(LINE_TERMINATORS) };
      case '[':
        return this.cls();
      case '(': {
        let capture = true;
        let look = false;
        if (this.peek() === '?') {
          const n1 = this.peek(1);
          if (n1 === ':') {
            this.i += 2;
            capture = false;
          } else if (n1 === '=' || n1 === '!') {
            this.i += 2;
            look = true;
          } else if (n1 === '<' && (this.peek(2) === '=' || this.peek(2) === '!')) {
            this.i += 3;
            look = true;
          } else if (n1 === '<') {
            this.i += 2;
            let name = '';
            while (this.i < this.cps.length && this.peek() !== '>') name += this.cps[this.i++];
            this.i++;
            this.names.set(name, this.groups + 1);
          } else throw new Error('unsupported group');
        }
        const index = capture ? ++this.groups : 0;
        const body = this.alt();
        if (this.peek() !== ')') throw new Error('missing )');
        this.i++;
        if (look) return { k: 'assert', kind: 'look' };
        return { k: 'group', body, index };
      }
      case '\\':
        return this.escape(false) as RNode;
      default:
        return { k: 'set', ranges: [[c.codePointAt(0)!, c.codePointAt(0)!]] };
    }
  }
  private quantifier(atom: RNode): RNode {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const rest = this.cps.slice(this.i).join('');
      const m = /^\{(\d+)(,(\d*))?\}/.exec(rest);
      if (!m) return atom;
      min = +m[1]!;
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : +m[3]!;
      this.i += [...m[0]].length - 1;
    } else return atom;
    this.i++;
    if (this.peek() === '?') this.i++;
    if (atom.k === 'assert') return atom;
    return { k: 'rep', body: atom, min, max };
  }
  /** An escape after `\`; in a class, returns ranges only. */
  private escape(inClass: boolean): RNode | [number, number][] {
    const c = this.cps[this.i++];
    const set = (ranges: [number, number][]): RNode | [number, number][] => (inClass ? ranges : { k: 'set', ranges });
    const ch = (cp: number): RNode | [number, number][] => {
      if (!(cp >= 0 && cp <= MAXCP)) throw new Error('bad code point');
      return set([[cp, cp]]);
    };
    switch (c) {
      case undefined:
        throw new Error('trailing backslash');
      case 'd':
        return set(DIGIT);
      case 'D':
        return set(complement(DIGIT));
      case 'w':
        return set(WORD);
      case 'W':
        return set(complement(WORD));
      case 's':
        return set(SPACE);
      case 'S':
        return set(complement(SPACE));
      case 'b':
        return inClass ? [[8, 8]] : { k: 'assert', kind: 'b' };
      case 'B':
        return inClass ? [] : { k: 'assert', kind: 'B' };
      case 't':
        return ch(9);
      case 'n':
        return ch(10);
      case 'r':
        return ch(13);
      case 'f':
        return ch(12);
      case 'v':
        return ch(11);
      case '0':
        return ch(0);
      case 'c': {
        const l = this.cps[this.i++] ?? 'A';
        return ch(l.toUpperCase().charCodeAt(0) % 32);
      }
      case 'x': {
        const h = this.cps.slice(this.i, this.i + 2).join('');
        this.i += 2;
        return ch(parseInt(h, 16));
      }
      case 'u': {
        if (this.peek() === '{') {
          const end = this.cps.indexOf('}', this.i);
          const h = this.cps.slice(this.i + 1, end).join('');
          this.i = end + 1;
          return ch(parseInt(h, 16));
        }
        const h = this.cps.slice(this.i, this.i + 4).join('');
        this.i += 4;
        return ch(parseInt(h, 16));
      }
      case 'p':
      case 'P': {
        // Unicode property: the sample code points the property matches (the result is checked anyway).
        let name = '';
        if (this.peek() === '{') {
          const end = this.cps.indexOf('}', this.i);
          name = this.cps.slice(this.i + 1, end).join('');
          this.i = end + 1;
        }
        const ranges = propertyRanges(name);
        return set(c === 'p' ? ranges : complement(ranges));
      }
      case 'k': {
        if (this.peek() === '<' && !inClass) {
          const end = this.cps.indexOf('>', this.i);
          const name = this.cps.slice(this.i + 1, end).join('');
          this.i = end + 1;
          return { k: 'backref', index: this.names.get(name) ?? name };
        }
        return ch(107);
      }
      default:
        if (!inClass && /[1-9]/.test(c)) {
          let digits = c;
          while (/[0-9]/.test(this.peek() ?? '')) digits += this.cps[this.i++];
          return { k: 'backref', index: +digits };
        }
        return ch(c.codePointAt(0)!);
    }
  }
  private cls(): RNode {
    let negate = false;
    if (this.peek() === '^') {
      negate = true;
      this.i++;
    }
    const ranges: [number, number][] = [];
    while (this.i < this.cps.length && this.peek() !== ']') {
      let lo: [number, number][];
      if (this.peek() === '\\') {
        this.i++;
        lo = this.escape(true) as [number, number][];
      } else {
        const c = this.cps[this.i++]!;
        lo = [[c.codePointAt(0)!, c.codePointAt(0)!]];
      }
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined && lo.length === 1 && lo[0]![0] === lo[0]![1]) {
        this.i++;
        let hi: [number, number][];
        if (this.peek() === '\\') {
          this.i++;
          hi = this.escape(true) as [number, number][];
        } else {
          const c = this.cps[this.i++]!;
          hi = [[c.codePointAt(0)!, c.codePointAt(0)!]];
        }
        if (hi.length === 1 && hi[0]![0] === hi[0]![1]) {
          ranges.push([lo[0]![0], hi[0]![0]]);
          continue;
        }
        ranges.push(...lo, [45, 45], ...hi);
        continue;
      }
      ranges.push(...lo);
    }
    if (this.peek() !== ']') throw new Error('missing ]');
    this.i++;
    const norm = normalizeRanges(ranges);
    return { k: 'set', ranges: negate ? complement(norm) : norm };
  }
}

/** Code points sampled from common scripts, to find members of a Unicode property class (`\\p{Script=Greek}`). */
export const PROPERTY_SAMPLES: [number, number][] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x61, 0x7a],
  [0x20, 0x2f],
  [0xc0, 0xff],
  [0x391, 0x3c9],
  [0x410, 0x44f],
  [0x5d0, 0x5ea],
  [0x627, 0x64a],
  [0x905, 0x939],
  [0x3041, 0x3096],
  [0x4e00, 0x4e20],
  [0xac00, 0xac20],
  [0x1f600, 0x1f64f],
];

export function propertyRanges(name: string): [number, number][] {
  let re: RegExp;
  try {
    re = new RegExp(`^\\p{${name}}$`, 'u');
  } catch {
    return [];
  }
  const out: [number, number][] = [];
  for (const [a, b] of PROPERTY_SAMPLES) for (let cp = a; cp <= b && out.length < 256; cp++) if (re.test(String.fromCodePoint(cp))) out.push([cp, cp]);
  return normalizeRanges(out);
}

export const astCache = new Map<string, RNode | null>();
export function patternAst(pattern: string): RNode | null {
  let ast = astCache.get(pattern);
  if (ast === undefined) {
    try {
      ast = new RegexParser(pattern).parse();
    } catch {
      ast = null;
    }
    if (astCache.size > 5000) astCache.clear();
    astCache.set(pattern, ast);
  }
  return ast;
}

export const lenCache = new WeakMap<RNode, [number, number]>();
export function lengths(n: RNode): [number, number] {
  const cached = lenCache.get(n);
  if (cached) return cached;
  let out: [number, number];
  switch (n.k) {
    case 'set':
      out = n.ranges.length === 0 ? [Infinity, -Infinity] : [1, 1];
      break;
    case 'seq': {
      let a = 0;
      let b = 0;
      for (const it of n.items) {
        const [x, y] = lengths(it);
        a += x;
        b += y;
      }
      out = [a, b];
      break;
    }
    case 'alt': {
      let a = Infinity;
      let b = -Infinity;
      for (const it of n.alts) {
        const [x, y] = lengths(it);
        a = Math.min(a, x);
        b = Math.max(b, y);
      }
      out = [a, b];
      break;
    }
    case 'group':
      out = lengths(n.body);
      break;
    case 'rep': {
      const [x, y] = lengths(n.body);
      out = [n.min * x, n.max === 0 ? 0 : y === 0 ? 0 : n.max * y];
      break;
    }
    case 'assert':
      out = [0, 0];
      break;
    case 'backref':
      out = [0, Infinity];
      break;
  }
  lenCache.set(n, out);
  return out;
}

/** Characters preferred when a set allows them (readable output). */
export const PREFERRED = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. ~!*+=:@,;/#$%&?()[]{}<>|^\'"`\\'].map((c) => c.codePointAt(0)!);

export const ALNUM = PREFERRED.slice(0, 62);

export function inRanges(ranges: [number, number][], cp: number): boolean {
  for (const [a, b] of ranges) if (cp >= a && cp <= b) return true;
  return false;
}

export class PatternWriter {
  private captures = new Map<number | string, string>();
  constructor(private readonly rng: () => number) {}
  write(n: RNode, target: number): string | undefined {
    switch (n.k) {
      case 'set': {
        if (n.ranges.length === 0) return undefined;
        let pool = ALNUM.filter((cp) => inRanges(n.ranges, cp));
        if (pool.length === 0) pool = PREFERRED.filter((cp) => inRanges(n.ranges, cp));
        if (pool.length > 0) return String.fromCodePoint(pool[Math.floor(this.rng() * pool.length)]!);
        const [a] = n.ranges.find(([x]) => x >= 0x20) ?? n.ranges[0]!;
        return String.fromCodePoint(a);
      }
      case 'seq': {
        const ls = n.items.map(lengths);
        const alloc = ls.map(([a]) => a);
        let extra = target - alloc.reduce((s, x) => s + x, 0);
        for (let i = 0; i < alloc.length && extra > 0; i++) {
          const give = Math.min(extra, ls[i]![1] - alloc[i]!);
          if (give > 0) {
            alloc[i]! += give;
            extra -= give;
          }
        }
        let out = '';
        for (let i = 0; i < n.items.length; i++) {
          const s = this.write(n.items[i]!, alloc[i]!);
          if (s === undefined) return undefined;
          out += s;
        }
        return out;
      }
      case 'alt': {
        const fits = n.alts.filter((a) => {
          const [x, y] = lengths(a);
          return x <= target && target <= y;
        });
        const pool = fits.length > 0 ? fits : [...n.alts].sort((a, b) => Math.abs(lengths(a)[0] - target) - Math.abs(lengths(b)[0] - target)).slice(0, 1);
        return this.write(pool[Math.floor(this.rng() * pool.length)]!, target);
      }
      case 'group': {
        const s = this.write(n.body, target);
        if (s !== undefined && n.index > 0) this.captures.set(n.index, s);
        return s;
      }
      case 'rep': {
        const [bm, bM] = lengths(n.body);
        let k: number;
        if (bM <= 0 || target <= n.min * bm) k = n.min;
        else {
          const need = bM === Infinity ? 1 : Math.ceil(target / bM);
          k = Math.min(n.max, Math.max(n.min, need));
          if (bm > 0) k = Math.max(n.min, Math.min(k, Math.floor(target / bm)));
        }
        if (k === Infinity) k = n.min;
        let out = '';
        let left = target;
        for (let i = 0; i < k; i++) {
          const share = Math.max(bm, Math.min(bM, Math.ceil(left / (k - i))));
          const s = this.write(n.body, share);
          if (s === undefined) return undefined;
          out += s;
          left -= cpLength(s);
        }
        return out;
      }
      case 'assert':
        return '';
      case 'backref':
        return this.captures.get(n.index) ?? '';
    }
  }
}

/** A string matching `pattern` with a length in [minL, maxL], or undefined. `attempt` varies the target length. */
export function patternString(ctx: Context, pattern: string, minL: number, maxL: number, attempt: number): string | undefined {
  const re = regex(pattern);
  if (re === null) return undefined;
  const ast = patternAst(pattern);
  if (ast === null) return undefined;
  const [pmin, pmax] = lengths(ast);
  const lo = Math.max(minL, pmin);
  const hi = Math.min(maxL, pmax);
  const targets = [lo, lo + 1, lo + 2, Math.floor((lo + Math.min(hi, lo + 64)) / 2), lo + 4, lo + 8, hi, lo];
  const target = Math.max(0, Math.min(Number.isFinite(hi) ? hi : lo + 64, targets[attempt % targets.length]!));
  const s = new PatternWriter(ctx.rng).write(ast, target);
  if (s === undefined) return undefined;
  const len = cpLength(s);
  if (len >= minL && len <= maxL && re.test(s)) return s;
  if (len >= minL) return undefined;
  // Unanchored patterns match inside a longer string: pad to the minimum length (after, else before).
  for (const pad of ['a', ' ', '0', '-']) {
    const fill = pad.repeat(minL - len);
    for (const t of [s + fill, fill + s]) if (cpLength(t) <= maxL && re.test(t)) return t;
  }
  return undefined;
}
