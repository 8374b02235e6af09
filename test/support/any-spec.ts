// Small inline specs for the tests of the inference rules (issue 27): `writeSpec` writes one to a scratch folder.
// Generating it in memory and running its sandbox and conformance suite is scripts/any-spec-run.ts's (`generateFor`,
// `conformanceOf`, `failures`), which the directory sample shares.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

/** Writes `doc` as `openapi.yaml` in a scratch folder; returns its path. */
export function writeSpec(doc: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'any-spec-doc-'));
  const file = join(dir, 'openapi.yaml');
  writeFileSync(file, stringify(doc));
  return file;
}
