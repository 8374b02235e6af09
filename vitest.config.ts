import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two workers on the 2-core machines this runs on: the packed-package test spends most of its time waiting on
    // the conformance bin over a socket (delivery retries, quiet periods), and the rest of the suite runs beside it.
    maxWorkers: 2,
  },
});
