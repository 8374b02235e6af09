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
  const violations = openApiSchemaViolations(document);
  if (violations.length > 0) {
    const { pointer, reason } = describe(Object.assign(new Error('OpenAPI schema validation failed'), { details: violations }));
    throw new SpecError(spec, pointer, reason, lineOf(pointer));
  }
  try {
    // validate() dereferences what it is given: hand it a copy so the bundled document keeps its $refs.
    await SwaggerParser.validate(structuredClone(document) as never, { dereference: { circular: true }, resolve: { external: false }, validate: { schema: false, spec: true } } as never);
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
