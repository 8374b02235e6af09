// The share of a pool's workers one caller's writes may hold (src/sandbox/pool/write-share.ts): reads never count,
// writes count per credential, and a finished write frees its place.
import { expect, it } from 'vitest';
import { WriteShares, writeShare, writerOf } from '../../../src/sandbox/pool/write-share.js';

it('gives one caller’s writes half the workers, at least one', () => {
  expect([1, 2, 3, 4, 5, 8].map(writeShare)).toEqual([1, 1, 1, 2, 2, 4]);
});

it('counts writes per credential and never counts reads', () => {
  expect(writerOf('GET', { 'x-api-key': 'k1' })).toBeNull();
  expect(writerOf('head', { 'x-api-key': 'k1' })).toBeNull();
  expect(writerOf('OPTIONS', {})).toBeNull();
  const k1 = writerOf('POST', { 'x-api-key': 'k1' });
  expect(writerOf('PATCH', { 'x-api-key': 'k1' })).toBe(k1);
  expect(writerOf('POST', { 'x-api-key': 'k2' })).not.toBe(k1);
  expect(writerOf('POST', { authorization: 'Bearer k1' })).not.toBe(k1);
  expect(writerOf('DELETE', { authorization: 'Bearer k1' })).toBe(writerOf('POST', { authorization: 'Bearer k1' }));
});

it('lets a caller start writes up to its share, then again once one finishes; others and reads are not held', () => {
  const shares = new WriteShares(2);
  const a = writerOf('POST', { 'x-api-key': 'a' });
  const b = writerOf('POST', { 'x-api-key': 'b' });
  shares.started(a);
  expect(shares.allows(a)).toBe(true);
  shares.started(a);
  expect(shares.allows(a)).toBe(false);
  expect(shares.allows(b)).toBe(true);
  expect(shares.allows(null)).toBe(true);
  shares.finished(a);
  expect(shares.allows(a)).toBe(true);
  shares.finished(a);
  shares.finished(a); // more finishes than starts (a worker's exit after its answer) never go below zero
  shares.started(a);
  shares.started(a);
  expect(shares.allows(a)).toBe(false);
});
