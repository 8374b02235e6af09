// Validation of one bundled document: the OpenAPI 3.0/3.1 JSON Schema (compiled once, openapi-schema.ts), then
// swagger-parser's spec rules (path parameters declared, operationIds unique, ...).
import SwaggerParser from '@apidevtools/swagger-parser';
import { SpecError } from './errors.js';
import { openApiSchemaViolations } from './openapi-schema.js';

export async function validateDocument(spec: string, document: Record<string, unknown>, lineOf: (pointer: string) => number | undefined): Promise<void> {
  const version = String(document.openapi ?? document.swagger ?? '');
  if (!/^3\.[01]\./.test(version)) {
    throw new SpecError(spec, '#/openapi', version === '' ? 'not an OpenAPI document (no "openapi" field)' : `OpenAPI ${version} is not supported; use 3.0.x or 3.1.x`);
  }
  // As swagger-parser validates: the schema check sees the document dereferenced (circular refs left in place),
  // so a $ref with sibling keywords is judged by what it points to; then the spec rules.
  let dereferenced: Record<string, unknown>;
  try {
    dereferenced = (await SwaggerParser.dereference(structuredClone(document) as never, { dereference: { circular: 'ignore' }, resolve: { external: false } } as never)) as unknown as Record<string, unknown>;
  } catch (error) {
    const { pointer, reason } = describe(error);
    throw new SpecError(spec, pointer, reason, lineOf(pointer));
  }
  const violations = openApiSchemaViolations(dereferenced);
  if (violations.length > 0) {
    const { pointer, reason } = describe(Object.assign(new Error('OpenAPI schema validation failed'), { details: violations }));
    throw new SpecError(spec, pointer, reason, lineOf(pointer));
  }
  try {
    await SwaggerParser.validate(dereferenced as never, { dereference: { circular: 'ignore' }, resolve: { external: false }, validate: { schema: false, spec: true } } as never);
  } catch (error) {
    const { pointer, reason } = describe(error);
    throw new SpecError(spec, pointer, reason, lineOf(pointer));
  }
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
