// The draft 2020-12 meta-schema and its vocabulary meta-schemas, for the suite's cases that reference it by URL
// (`$ref: "https://json-schema.org/draft/2020-12/schema"`). They come from Ajv, which ships them
// (`ajv/dist/refs/json-schema-2020-12`), and are embedded into the case's schema as `$defs` resources: each
// keeps its `$id`, so a reference by URL resolves inside the document, as a bundled compound schema does
// (JSON Schema 2020-12, section 9.3). `$defs` entries do not validate anything by themselves.
import { createRequire } from 'node:module';
import type { SchemaNode } from '../../src/emit/validators/compile.js';

const require = createRequire(import.meta.url);
const DIR = 'ajv/dist/refs/json-schema-2020-12';
const FILES = ['schema', 'meta/core', 'meta/applicator', 'meta/unevaluated', 'meta/validation', 'meta/meta-data', 'meta/format-annotation', 'meta/content'];
const BASE = 'https://json-schema.org/draft/2020-12/';

const META: Record<string, SchemaNode> = Object.fromEntries(FILES.map((f) => [`jsts-meta:${f}`, require(`${DIR}/${f}.json`) as SchemaNode]));

/** Whether a schema references a draft 2020-12 meta-schema by URL (not merely declares it with `$schema`). */
function referencesMeta(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(referencesMeta);
  if (node === null || typeof node !== 'object') return false;
  for (const [key, value] of Object.entries(node)) {
    if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string' && value.startsWith(BASE)) return true;
    if (referencesMeta(value)) return true;
  }
  return false;
}

/** The schema, with the meta-schemas embedded when it references one by URL; otherwise the schema itself. */
export function withMetaSchemas(schema: SchemaNode): SchemaNode {
  if (typeof schema !== 'object' || !referencesMeta(schema)) return schema;
  const defs = (schema.$defs ?? {}) as Record<string, SchemaNode>;
  return { ...schema, $defs: { ...defs, ...structuredClone(META) } };
}
