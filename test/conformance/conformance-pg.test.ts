// The generated conformance suite against the in-process sandbox on the PostgreSQL store (a schema of its own
// in SANDBOX_PG_URL's database): the same cases as on SQLite, 0 failed and 0 skipped beyond the expected.
import { afterAll, beforeAll } from 'vitest';
import { inProcessTarget } from '../../src/conformance/in-process.js';
import type { Target } from '../../src/conformance/target.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { describePg, dropSchema, freshSchemaUrl } from '../sandbox/pg-env.js';
import { conformanceCases } from './conformance-cases.js';

describePg('conformance of the sandbox on PostgreSQL', () => {
  let target: Target;
  let sandbox: Sandbox;
  const { url, schema } = freshSchemaUrl('conformance');
  beforeAll(async () => {
    ({ target, sandbox } = await inProcessTarget({ db: url }));
  });
  afterAll(async () => {
    await sandbox?.close();
    dropSchema(schema);
  });
  conformanceCases(() => target);
});
