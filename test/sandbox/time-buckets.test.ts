// Baseline history buckets around DST changes: wall-clock aligned, and in the hour a fall-back repeats each pass
// has buckets of its own (docs/sandbox.md "Baselines").
import { describe, expect, it } from 'vitest';
import { bucketStart, formatInZone, parseInterval } from '../../src/sandbox/rules/events/time-buckets.js';

const key = (at: string, interval: string, zone: string): string => formatInZone(bucketStart(Date.parse(at), parseInterval(interval)!, zone), zone);

describe('bucketStart', () => {
  it('keeps the two passes of a repeated hour apart, each whole', () => {
    // Europe/Berlin falls back at 2025-10-26T01:00Z: 02:00-03:00 is lived at +02:00, then again at +01:00.
    expect(key('2025-10-26T00:10:00Z', '1 hour', 'Europe/Berlin')).toBe('2025-10-26T02:00:00+02:00');
    expect(key('2025-10-26T00:50:00Z', '1 hour', 'Europe/Berlin')).toBe('2025-10-26T02:00:00+02:00');
    expect(key('2025-10-26T01:10:00Z', '1 hour', 'Europe/Berlin')).toBe('2025-10-26T02:00:00+01:00');
    expect(key('2025-10-26T01:50:00Z', '30 minutes', 'Europe/Berlin')).toBe('2025-10-26T02:30:00+01:00');
    expect(key('2025-11-02T05:40:00Z', '1 hour', 'America/New_York')).toBe('2025-11-02T01:00:00-04:00');
    expect(key('2025-11-02T06:40:00Z', '1 hour', 'America/New_York')).toBe('2025-11-02T01:00:00-05:00');
  });

  it('starts a day at local midnight on the days the offset changes', () => {
    expect(key('2025-11-02T12:00:00Z', '1 day', 'America/New_York')).toBe('2025-11-02T00:00:00-04:00');
    expect(key('2025-03-09T12:00:00Z', '1 day', 'America/New_York')).toBe('2025-03-09T00:00:00-05:00');
    expect(key('2025-03-30T01:30:00Z', '4 hours', 'Europe/Berlin')).toBe('2025-03-30T00:00:00+01:00');
  });

  it('never moves backwards in time for intervals that divide an hour or a day', () => {
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe']) {
      for (const interval of ['1 minute', '15 minutes', '1 hour', '4 hours', '1 day']) {
        for (const day of ['2025-10-26', '2025-11-02', '2025-04-06', '2025-10-05', '2025-03-30', '2025-03-09']) {
          let previous = -Infinity;
          for (let ms = Date.parse(`${day}T00:00:00Z`) - 43_200_000; ms < Date.parse(`${day}T00:00:00Z`) + 43_200_000; ms += 5 * 60_000) {
            const start = bucketStart(ms, parseInterval(interval)!, zone);
            expect(start, `${zone} ${interval} at ${new Date(ms).toISOString()}`).toBeGreaterThanOrEqual(previous);
            expect(start).toBeLessThanOrEqual(ms);
            previous = start;
          }
        }
      }
    }
  });
});
