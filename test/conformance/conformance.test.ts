// The generated conformance suite against the in-process sandbox (SQLite, :memory:): every operation, every
// applicable check. The same cases run on PostgreSQL in conformance-pg.test.ts.
import { afterAll, beforeAll, describe } from 'vitest';
import { inProcessTarget } from '../../src/conformance/in-process.js';
import type { Target } from '../../src/conformance/target.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { conformanceCases } from './conformance-cases.js';

export { EXPECTED_SKIPS } from './conformance-cases.js';

let target: Target;
let sandbox: Sandbox;
beforeAll(async () => {
  ({ target, sandbox } = await inProcessTarget());
});
afterAll(async () => sandbox.close());

describe('conformance of the sandbox', () => {
  conformanceCases(() => target);
});
