// Identifier minting: ULIDs (Crockford base32, time-ordered) and fixed-length alphanumeric ids, from the
// id formats the route table derives from each resource's id pattern.
import type { IdFormat } from '../contracts/route-table.js';
import { randomBytes, randomFillSync, randomUUID } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// Random bytes come from a pool refilled 4 KiB at a time: one call into the CSPRNG per ~200 ids instead of one
// per id (every request mints a request id, most writes an id too).
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function poolBytes(count: number): Buffer {
  if (count > pool.length) return randomBytes(count);
  if (poolOffset + count > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = pool.subarray(poolOffset, poolOffset + count);
  poolOffset += count;
  return out;
}

let lastTime = 0;
let lastRandom: number[] = [];

/** A monotonic ULID: ids minted in the same millisecond still sort in minting order. */
export function ulid(now: number = Date.now()): string {
  let random: number[];
  if (now <= lastTime && lastRandom.length === 16) {
    now = lastTime;
    random = [...lastRandom];
    for (let i = 15; i >= 0; i--) {
      if (random[i]! < 31) {
        random[i]! += 1;
        break;
      }
      random[i] = 0;
    }
  } else {
    random = [...poolBytes(16)].map((b) => b & 31);
  }
  lastTime = now;
  lastRandom = random;
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  return time + random.map((r) => CROCKFORD[r]).join('');
}

export function alnum(length: number): string {
  const bytes = poolBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length; i++) {
    const b = bytes[i % bytes.length]!;
    if (b < 248) out += ALNUM[b % 62];
    if (i > length * 8) out += ALNUM[i % 62];
  }
  return out;
}

export type { IdFormat };

export function mintId(format: IdFormat): string {
  if (format.kind === 'uuid') return randomUUID();
  // 1 .. 2^31-1: valid for int32 and int64 alike, and exact as a JSON number everywhere.
  if (format.kind === 'integer') return String(1 + (randomBytes(4).readUInt32BE(0) % 0x7fffffff));
  if (format.kind === 'prefixed') return format.prefix + fromAlphabet(format.alphabet, format.length);
  return format.kind === 'ulid' ? ulid() : alnum(format.length);
}

export function secret(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}

/** `length` characters drawn uniformly from `alphabet` (rejection sampling over random bytes). */
function fromAlphabet(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit && out.length < length) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}
