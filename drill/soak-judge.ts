// The soak's verdict on flatness (issue 29), apart from the traffic so it can be tested on its own. The run is
// cut into samples (one per interval); memory and p99 are compared between a reference window, once the
// sandbox is warm, and the final window:
//   reference = samples ending in [T/6, T/3], final = samples ending in (5T/6, T]
// (for an hour: minutes 10-20 against the last ten minutes). Passing: the final window's median p99 is within
// 10% (or 5 ms, for tiny latencies) of the reference's, and each memory median (RSS, heap) is within 10% of the
// reference's plus the data stored in between (the rows the sandbox's database holds more between the two windows,
// every live record, version and sent entry whatever made it (soak-live-count.ts), times a record's mean size as answered: memory that holds data is not a leak). RSS is also allowed twice the database file's
// growth between the windows where it is known (SQLite): the store maps its file into memory (mmap_size), so every
// page of it the sandbox touches counts in RSS, and SQLite's page cache keeps a copy of the pages it writes, up to
// its bound (cache_size, 64 MB; measured: a store growing its file by 78 MB grew RSS by 78 MB mapped plus 69 MB of
// cache, which then stayed). The heap gets no such allowance.

export interface SoakSample {
  /** Seconds since the traffic started, at the end of the sample. */
  t: number;
  requests: number;
  p50: number;
  p99: number;
  /** Bytes; the sum over instances. */
  rss: number;
  heap: number;
  /**
   * Rows the sandbox holds at the end of the sample: its database's count of live records, versions and sent
   * entries (soak-live-count.ts); the soak's acknowledged creates minus deletes where the database cannot be read.
   */
  stored: number;
  /** The database file's size in bytes (SQLite, with its WAL), or null where it is not the process's to map. */
  dbBytes?: number | null;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const MB = 1024 * 1024;
/** The SQLite store's page cache bound (sqlite-store.ts `cache_size = -4096`, in KiB). */
const SQLITE_CACHE_BYTES = 4 * MB;

/** The flatness checks over the samples of a soak of `seconds`; `recordBytes` is the mean size of a stored record. */
export function judgeFlatness(samples: SoakSample[], seconds: number, recordBytes: number): Check[] {
  const reference = samples.filter((s) => s.t >= seconds / 6 - 1e-9 && s.t <= seconds / 3 + 1e-9);
  const final = samples.filter((s) => s.t > (5 * seconds) / 6 + 1e-9);
  if (reference.length === 0 || final.length === 0) {
    return [{ name: 'flatness', ok: false, detail: `not enough samples (reference ${reference.length}, final ${final.length}): use a soak of at least 6 intervals` }];
  }
  const window = (list: SoakSample[]) => `${Math.round(list[0]!.t - (list.length > 1 ? list[1]!.t - list[0]!.t : 0))}-${Math.round(list[list.length - 1]!.t)} s`;
  const p99Ref = median(reference.map((s) => s.p99));
  const p99Final = median(final.map((s) => s.p99));
  const p99Limit = Math.max(p99Ref * 1.1, p99Ref + 5);
  const storedGrowth = Math.max(0, median(final.map((s) => s.stored)) - median(reference.map((s) => s.stored)));
  const allowance = storedGrowth * recordBytes;
  const sizes = (list: SoakSample[]) => list.map((s) => s.dbBytes).filter((b): b is number => typeof b === 'number');
  const dbGrowth = sizes(reference).length > 0 && sizes(final).length > 0 ? Math.max(0, median(sizes(final)) - median(sizes(reference))) : 0;
  const memory = (name: 'rss' | 'heap'): Check => {
    const ref = median(reference.map((s) => s[name]));
    const fin = median(final.map((s) => s[name]));
    const mapped = name === 'rss' ? dbGrowth + Math.min(dbGrowth, SQLITE_CACHE_BYTES) : 0;
    const limit = ref * 1.1 + allowance + mapped;
    return {
      name: `${name === 'rss' ? 'RSS' : 'heap'} flat`,
      ok: fin <= limit,
      detail: `median ${(fin / MB).toFixed(1)} MB over ${window(final)} against ${(ref / MB).toFixed(1)} MB over ${window(reference)}; limit ${(limit / MB).toFixed(1)} MB (+10%, + ${storedGrowth} records stored in between x ${Math.round(recordBytes)} B = ${(allowance / MB).toFixed(2)} MB${mapped > 0 ? `, + the database file's growth in between, mapped, ${(dbGrowth / MB).toFixed(1)} MB, and SQLite's page cache filling, at most ${(Math.min(dbGrowth, SQLITE_CACHE_BYTES) / MB).toFixed(1)} MB` : ''})`,
    };
  };
  return [
    { name: 'p99 flat', ok: p99Final <= p99Limit, detail: `median p99 ${p99Final.toFixed(1)} ms over ${window(final)} against ${p99Ref.toFixed(1)} ms over ${window(reference)}; limit ${p99Limit.toFixed(1)} ms (+10% or +5 ms)` },
    memory('rss'),
    memory('heap'),
  ];
}
