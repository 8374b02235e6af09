// Identifier minting: ULIDs (Crockford base32, time-ordered) and fixed-length alphanumeric ids, from the
// id formats the route table derives from each resource's id pattern.
import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

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
    random = [...randomBytes(16)].map((b) => b & 31);
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
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length; i++) {
    const b = bytes[i % bytes.length]!;
    if (b < 248) out += ALNUM[b % 62];
    if (i > length * 8) out += ALNUM[i % 62];
  }
  return out;
}

export type IdFormat = { kind: 'ulid' } | { kind: 'alnum'; length: number } | { kind: 'token'; length: number };

export function mintId(format: IdFormat): string {
  return format.kind === 'ulid' ? ulid() : alnum(format.length);
}

export function secret(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}
