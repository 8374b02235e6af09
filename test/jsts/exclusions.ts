// Test groups of the official JSON Schema Test Suite that we do not run, each with its reason.
// The suite's remotes/ directory (schemas served at http://localhost:1234) is not available here, and the
// compiler refuses references that leave the document. (The draft 2020-12 meta-schemas are bundled: see
// meta-schemas.ts.)

export interface Exclusion {
  file: string;
  /** Group description, or '*' for the whole file. */
  group: string;
  reason: string;
}

const NEEDS_REMOTES = 'needs a schema from the suite remotes/ directory (http://localhost:1234), which is not present';

export const EXCLUSIONS: Exclusion[] = [
  { file: 'refRemote.json', group: '*', reason: NEEDS_REMOTES },
  { file: 'dynamicRef.json', group: 'strict-tree schema, guards against misspelled properties', reason: NEEDS_REMOTES },
  { file: 'dynamicRef.json', group: 'tests for implementation dynamic anchor and reference link', reason: NEEDS_REMOTES },
  { file: 'dynamicRef.json', group: '$ref and $dynamicAnchor are independent of order - $defs first', reason: NEEDS_REMOTES },
  { file: 'dynamicRef.json', group: '$ref and $dynamicAnchor are independent of order - $ref first', reason: NEEDS_REMOTES },
  { file: 'dynamicRef.json', group: '$ref to $dynamicRef finds detached $dynamicAnchor', reason: NEEDS_REMOTES },
  {
    file: 'vocabulary.json',
    group: 'schema that uses custom metaschema with with no validation vocabulary',
    reason: 'needs a custom meta-schema from remotes/ and $vocabulary support; we always apply the validation vocabulary',
  },
];

export function exclusionFor(file: string, group: string): Exclusion | undefined {
  return EXCLUSIONS.find((e) => e.file === file && (e.group === '*' || e.group === group));
}
