// Time buckets for baseline history: the bucket_interval grammar, IANA time zone checks, and bucket starts
// aligned to the wall clock of a time zone (DST-aware, through Intl).

export type Unit = 'minute' | 'hour' | 'day' | 'week';

export interface Interval {
  count: number;
  unit: Unit;
}

const UNIT_MS: Record<Unit, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 };

/** `<count> <unit>`: count 1-9999, unit minute|hour|day|week, singular or plural (`4 hours`, `1 day`). */
export const INTERVAL_PATTERN = /^([1-9][0-9]{0,3}) (minute|minutes|hour|hours|day|days|week|weeks)$/;

export function parseInterval(value: string): Interval | null {
  const m = INTERVAL_PATTERN.exec(value);
  if (!m) return null;
  return { count: Number(m[1]), unit: m[2]!.replace(/s$/, '') as Unit }; // the pattern above admits only the units' names
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The canonical name of an IANA time zone (`utc` -> `UTC`), or null when it is not one. Offsets (`+01:00`) are refused. */
export function canonicalTimeZone(value: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Milliseconds the wall clock of `timeZone` is ahead of UTC at instant `ms`. */
export function offsetAt(timeZone: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The instant whose wall-clock time in `timeZone` is `wall` (a UTC-encoded wall time); in a DST gap, the later side. */
function instantOfWall(timeZone: string, wall: number): number {
  const first = wall - offsetAt(timeZone, wall);
  const second = wall - offsetAt(timeZone, first);
  return offsetAt(timeZone, second) === wall - second ? second : Math.max(first, second);
}

/** Monday 1970-01-05, the origin of week buckets (weeks start on Monday). */
const WEEK_ORIGIN = 4 * 86_400_000;

/**
 * Start of the bucket holding instant `ms`: wall-clock time in the zone floored to a multiple of the
 * interval counted from the zone's 1970-01-01 00:00 (weeks: from Monday 1970-01-05), so `4 hours` starts at
 * local 00:00, 04:00, ... and `1 day` at local midnight.
 */
export function bucketStart(ms: number, interval: Interval, timeZone: string): number {
  const width = interval.count * UNIT_MS[interval.unit];
  const origin = interval.unit === 'week' ? WEEK_ORIGIN : 0;
  const offset = offsetAt(timeZone, ms);
  const start = Math.floor((ms + offset - origin) / width) * width + origin;
  // When the zone's offset is the same at the bucket's start as at the instant, the start is that wall time under
  // this offset: in the hour a fall-back repeats, an instant of the first pass stays in the first pass's bucket
  // (02:10 and 02:50 CEST share 02:00+02:00) and one of the second pass in the second's. Only when the offset
  // changed in between does the wall time have to be placed on its own.
  const sameOffset = start - offset;
  const instant = offsetAt(timeZone, sameOffset) === offset ? sameOffset : instantOfWall(timeZone, start);
  // A bucket never starts after the instants it holds (possible only around DST changes).
  return instant > ms ? ms : instant;
}

/** RFC 3339 with the zone's offset at that instant (`2026-03-01T04:00:00+01:00`; `Z` when the offset is 0). */
export function formatInZone(ms: number, timeZone: string): string {
  const offset = offsetAt(timeZone, ms);
  const local = new Date(ms + offset).toISOString().slice(0, 19);
  if (offset === 0) return `${local}Z`;
  const sign = offset > 0 ? '+' : '-';
  const abs = Math.abs(offset) / 60_000;
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
