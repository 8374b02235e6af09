// Validation of one bundled document. First validate-in-place.ts tries to prove, without dereferencing, that the
// document passes with no violation (most documents: no copy, a fraction of the time on a large spec); when it
// cannot, the check below runs as it always did and reports what it always reported.
//
// The check: swagger-parser dereferences it (refusing refs that lead nowhere and what its
// parser refuses: an unsupported version, no `paths` in 3.0), then the OpenAPI 3.0/3.1 JSON Schema (compiled once,
// openapi-schema.ts). swagger-parser's own "spec rules" (path parameters declared, operationIds unique) exist for
// Swagger 2.0 only (its validateSpec returns at once for an `openapi` document), so they are not run: running them
// dereferenced the document a second time for nothing; the model applies its own (unique operationIds, a path
// parameter for every template variable).
//
// Strict policy (our spec/): the first violation refuses the document. Lenient policy (any other document):
// a violation is a warning and loading goes on, because a document that breaks the OpenAPI schema somewhere
// (an operation without `responses`, an extra key, a wrong type in a description) still describes an API; what
// cannot be generated is refused later, by the model, with the place and the reason. Only a document that is
// not OpenAPI 3.0/3.1 at all is refused here.
import SwaggerParser from '@apidevtools/swagger-parser';
import { SpecError, type SpecWarning } from './errors.js';
import { openApiSchemaViolations, type CompiledCache, type SchemaViolation } from './openapi-schema.js';
import { passesInPlace } from './validate-in-place.js';

export type ValidationPolicy = 'strict' | 'lenient';

/** At most this many schema violations become warnings per document (the rest are counted in one more). */
const MAX_WARNINGS = 200;

export async function validateDocument(spec: string, document: Record<string, unknown>, lineOf: (pointer: string) => number | undefined, policy: ValidationPolicy = 'strict', cache?: CompiledCache): Promise<SpecWarning[]> {
  const version = String(document.openapi ?? document.swagger ?? '');
  if (!/^3\.[01]\./.test(version)) {
    throw new SpecError(spec, '#/openapi', version === '' ? 'not an OpenAPI document (no "openapi" field)' : `OpenAPI ${version} is not supported; use 3.0.x or 3.1.x`);
  }
  if (passesInPlace(document, cache)) return [];
  return checkDereferenced(spec, document, lineOf, policy, cache);
}

/** The check itself, on a dereferenced copy of the document (exported for the test that holds the two paths equal). */
export async function checkDereferenced(spec: string, document: Record<string, unknown>, lineOf: (pointer: string) => number | undefined, policy: ValidationPolicy = 'strict', cache?: CompiledCache): Promise<SpecWarning[]> {
  const warnings: SpecWarning[] = [];
  const report = (pointer: string, reason: string): void => {
    if (policy === 'strict') throw new SpecError(spec, pointer, reason, lineOf(pointer));
    warnings.push({ spec, pointer, reason, ...(lineOf(pointer) !== undefined ? { line: lineOf(pointer)! } : {}) });
  };
  // As swagger-parser validates: the schema check sees the document dereferenced (circular refs left in place),
  // so a $ref with sibling keywords is judged by what it points to.
  let dereferenced: Record<string, unknown>;
  try {
    dereferenced = (await SwaggerParser.dereference(structuredClone(document) as never, { dereference: { circular: 'ignore' }, resolve: { external: false } } as never)) as unknown as Record<string, unknown>;
  } catch (error) {
    const { pointer, reason } = describe(error);
    // Lenient: the model resolves refs itself and names any it needs that lead nowhere.
    report(pointer, reason);
    return warnings;
  }
  const violations = openApiSchemaViolations(dereferenced, cache);
  if (violations.length > 0) {
    if (policy === 'strict') {
      const { pointer, reason } = describe(Object.assign(new Error('OpenAPI schema validation failed'), { details: violations }));
      report(pointer, reason);
    }
    const precise = mostPrecise(violations);
    for (const v of precise.slice(0, MAX_WARNINGS)) {
      const { pointer, reason } = describe(Object.assign(new Error('OpenAPI schema validation failed'), { details: [v] }));
      report(pointer, reason);
    }
    if (precise.length > MAX_WARNINGS) report('#', `invalid OpenAPI: ${precise.length - MAX_WARNINGS} more violation(s) of the OpenAPI schema not listed`);
  }
  return warnings;
}

/**
 * Ajv reports a violation at every level of a failed `oneOf`/`anyOf` (the Reference-or-Schema alternatives of the
 * OpenAPI schema); the deepest location says what is wrong. Keeps, per location, the first violation, and drops
 * a location when a deeper one below it is reported.
 */
function mostPrecise(violations: SchemaViolation[]): SchemaViolation[] {
  const byPath = new Map<string, SchemaViolation>();
  for (const v of violations) if (!byPath.has(v.instancePath)) byPath.set(v.instancePath, v);
  const paths = [...byPath.keys()];
  return paths.filter((p) => !paths.some((q) => q !== p && q.startsWith(`${p}/`))).map((p) => byPath.get(p)!);
}

/** Pull the first precise location out of swagger-parser's (Ajv-based) message. */
function describe(error: unknown): { pointer: string; reason: string } {
  const message = String((error as Error)?.message ?? error);
  const details = (error as { details?: { instancePath?: string; message?: string; params?: unknown }[] }).details;
  if (Array.isArray(details) && details.length > 0) {
    const first = details[0]!;
    const path = first.instancePath ?? '';
    return { pointer: path === '' ? '#' : `#${path}`, reason: `invalid OpenAPI: ${first.message ?? message}${first.params ? ` ${JSON.stringify(first.params)}` : ''}` };
  }
  const ref = /(#\/[^\s"']+)/.exec(message);
  return { pointer: ref ? ref[1]! : '#', reason: `invalid OpenAPI: ${message.split('\n').slice(0, 3).join(' ')}` };
}
