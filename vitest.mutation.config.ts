// The test command of mutation testing: only the generated conformance suite against the sandbox.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/conformance/conformance.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
