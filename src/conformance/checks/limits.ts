// Limits and enums, derived from the schemas: for each constrained body field, values just inside each bound
// pass and values just outside fail with 400 INVALID_ARGUMENT naming the field (lengths in code points,
// numeric bounds, item counts, every enum value and an unknown one, patterns, required fields, unknown
// properties, wrong JSON types); malformed JSON and non-JSON bodies; constrained path, query and header values.
import { takesJsonBody, takesObjectBody, wrongKindOfBody } from '../body-types.js';
import { boundaryVariants, validValue } from '../values/index.js';
import { expectError, expectStatus, send } from '../http.js';
import { fail, lacks } from '../result.js';
import { bodyProperties, deref, fieldRules, recordOf, referenceName } from '../world.js';
import type { Check, CheckContext } from './context.js';
import { prepare, requiredParams } from './happy.js';

async function bodyVariants(ctx: CheckContext, which: 'valid' | 'invalid'): Promise<void> {
  const schema = ctx.suite.schemas[ctx.route.id]!.body;
  const variants = boundaryVariants(schema as never, ctx.world.defs, { seed: 11 });
  // A reference field's value must name something that exists: its bounds are checked only from outside.
  // A field whose null is decided by a rule module (x-null: rule) accepts null only in some states.
  const rules = fieldRules(ctx.suite, ctx.route);
  const list = variants[which].filter((v) => {
    if (which === 'invalid') return true;
    const top = v.path.split(/[.[]/)[0] ?? '';
    if (v.path !== '' && referenceName(top) !== undefined) return false;
    if (v.value !== null && typeof v.value === 'object' && (v.value as Record<string, unknown>)[top] === null && rules[top]?.null === 'rule') return false;
    return true;
  });
  if (list.length === 0) lacks(`the body schema has no constrained field with ${which} boundary values`);
  const failures: string[] = [];
  const refusedByRule: string[] = [];
  for (const variant of list) {
    const spec = await prepare(ctx);
    const base = (spec.body ?? {}) as Record<string, unknown>;
    // The variant is a whole body; references to resources in it are replaced by the prepared ones.
    const body = { ...(variant.value as Record<string, unknown>) };
    const field = variant.path.split(/[.[]/)[0];
    for (const [k, v] of Object.entries(base)) if (/_ids?$/.test(k) && k !== field) body[k] = v;
    await ctx.world.fillReferences(body, ctx.route, field);
    ctx.world.makeUnique(body, ctx.route, field);
    const answer = await send(ctx.target, ctx.route, { ...spec, body });
    await cleanUpAfter(ctx, spec.path ?? {}, answer);
    // A generated string the schema accepts but a rule module refuses on that very field (a pattern that
    // allows `custom:<id>` of a sound that does not exist) is a limit the schema cannot express: not counted.
    if (which === 'valid' && answer.status === 400 && ctx.route.rules.length > 0 && /length|pattern/.test(variant.label) && JSON.stringify(answer.body).includes(`"field":${JSON.stringify(field)}`)) {
      refusedByRule.push(variant.label);
      continue;
    }
    // A value unique among all records, deleted ones too (a workspace slug), stays taken once an earlier variant or
    // run used it: 409 on that field means the value passed validation.
    if (which === 'valid' && answer.status === 409 && field !== undefined && rules[field]?.unique?.among === 'all' && JSON.stringify(answer.body).includes(`"field":${JSON.stringify(field)}`)) {
      refusedByRule.push(variant.label);
      continue;
    }
    try {
      if (which === 'valid') expectStatus(answer, ctx.route.success.status, `${variant.label} (${variant.path})`);
      else expectError(answer, 400, 'INVALID_ARGUMENT', variant.path.split(/[.[]/)[0], `${variant.label} (${variant.path})`);
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  if (failures.length > 0) fail(`${failures.length} of ${list.length} ${which} variants: ${failures.slice(0, 4).join(' | ')}`);
  if (refusedByRule.length === list.length) lacks(`every ${which} variant was refused by a rule module of the operation: ${refusedByRule.join(', ')}`);
}

/** A valid variant leaves a record behind (holding unique values): delete it, where the API allows. */
async function cleanUpAfter(ctx: CheckContext, path: Record<string, string>, answer: { status: number; body: unknown }): Promise<void> {
  if (answer.status >= 300 || ctx.route.resource === null) return;
  const del = ctx.world.route(ctx.route.resource, 'delete');
  if (!del) return;
  const resource = ctx.world.resource(ctx.route.resource);
  let target = path;
  if (ctx.route.action === 'create') {
    const id = recordOf(ctx.route, answer as never)?.[resource.id];
    if (typeof id !== 'string') return;
    target = { ...path, [ctx.world.idParam(resource.name)]: id };
  }
  if (ctx.route.action === 'create' || ctx.route.action === 'update') await send(ctx.target, del, { path: target });
}

export const bodyInside: Check = {
  name: 'limits: values just inside every bound are accepted',
  needs: 'a create or update operation with a body that needs a credential',
  applies: (route) => takesObjectBody(route) && route.auth.length > 0 && (route.body.exactlyOneOf ?? []).length === 0 && (route.action === 'create' || route.action === 'update'),
  run: (ctx) => bodyVariants(ctx, 'valid'),
};

export const bodyOutside: Check = {
  name: 'limits: values just outside every bound, unknown enum values, bad patterns, missing required fields are 400 on the field',
  needs: 'an operation with a body that needs a credential',
  applies: (route) => takesJsonBody(route) && route.auth.length > 0,
  run: (ctx) => bodyVariants(ctx, 'invalid'),
};

/**
 * Strings that must hold JSON (`contentMediaType: application/json` with a `contentSchema`): text that is
 * not JSON, or JSON of the wrong type, is 400 on the field. JSON Schema treats these keywords as annotations,
 * so the API's own rule is what is being checked.
 */
export const jsonContent: Check = {
  name: 'limits: a string field that must hold JSON refuses text that is not JSON of its content schema',
  needs: 'a body string field that must hold JSON (contentMediaType)',
  applies: (route, suite) => takesJsonBody(route) && route.auth.length > 0 && jsonContentFields(route, suite).length > 0,
  async run(ctx) {
    for (const [field, contentType] of jsonContentFields(ctx.route, ctx.suite)) {
      const wrong = contentType === 'object' ? ['[1, 2]', '"text"', '42'] : contentType === 'array' ? ['{"a": 1}', '42'] : [];
      for (const text of ['not json {', ...wrong]) {
        const spec = await prepare(ctx);
        const answer = await send(ctx.target, ctx.route, { ...spec, body: { ...(spec.body as Record<string, unknown>), [field]: text } });
        expectError(answer, 400, 'INVALID_ARGUMENT', field, `${field} = ${text}`);
      }
    }
  },
};

function jsonContentFields(route: Parameters<Check['applies']>[0], suite: Parameters<Check['applies']>[1]): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  for (const [name, node] of Object.entries(bodyProperties(suite, route).properties)) {
    const schema = deref(node, suite.defs);
    if (typeof schema.contentMediaType === 'string' && /json/i.test(schema.contentMediaType)) {
      const content = schema.contentSchema as { type?: string } | undefined;
      out.push([name, typeof content?.type === 'string' ? content.type : undefined]);
    }
  }
  return out;
}

export const malformedJson: Check = {
  name: 'limits: malformed JSON and a non-JSON body are 400',
  needs: 'an operation with a JSON body that needs a credential',
  applies: (route) => takesJsonBody(route) && route.auth.length > 0,
  async run(ctx) {
    const spec = await prepare(ctx);
    expectError(await send(ctx.target, ctx.route, { ...spec, body: undefined, raw: '{"unterminated": ' }), 400, 'INVALID_ARGUMENT', undefined, 'malformed JSON');
    expectError(
      await send(ctx.target, ctx.route, { ...spec, body: undefined, raw: 'plain text', headers: { ...spec.headers, 'content-type': 'text/plain' } }),
      400,
      'INVALID_ARGUMENT',
      undefined,
      'a text/plain body',
    );
    // JSON of a kind the body schema refuses (an array for an object body, an object for an array body); a body
    // schema that admits both, or cannot be read, gets no such probe.
    const wrong = wrongKindOfBody(ctx.route, ctx.suite.schemas, ctx.suite.defs);
    if (wrong) expectError(await send(ctx.target, ctx.route, { ...spec, body: wrong.body }), 400, 'INVALID_ARGUMENT', undefined, wrong.what);
  },
};

/** A value of the parameter's schema that breaks it: too long, too short, or off-pattern. */
function badValue(schema: Record<string, unknown>): string | undefined {
  if (typeof schema.maxLength === 'number') return 'a'.repeat(schema.maxLength + 1);
  if (typeof schema.pattern === 'string') {
    for (const candidate of ['!', 'x', 'a b', '~~~']) if (!new RegExp(schema.pattern, 'u').test(candidate)) return candidate;
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 1) return 'a';
  return undefined;
}

export const badPathIds: Check = {
  name: 'limits: a malformed path id is 400 on the parameter',
  needs: 'a path parameter whose schema refuses some value (pattern, length, format)',
  applies: (route, suite) => route.auth.length > 0 && route.params.path.some((p) => badValue(deref(suite.schemas[route.id]!.path[p.name], suite.defs)) !== undefined),
  async run(ctx) {
    for (const p of ctx.route.params.path) {
      const bad = badValue(deref(ctx.suite.schemas[ctx.route.id]!.path[p.name], ctx.suite.defs));
      if (bad === undefined) continue;
      const prepared = await prepare(ctx);
      const spec = { ...prepared, path: { ...prepared.path, [p.name]: bad } };
      expectError(await send(ctx.target, ctx.route, spec), 400, 'INVALID_ARGUMENT', p.name, `${p.name}=${bad}`);
    }
  },
};

export const queryBounds: Check = {
  name: 'limits: numeric query parameters inside their bounds pass, outside are 400 on the parameter',
  needs: 'an integer query parameter with a maximum',
  applies: (route, suite) =>
    route.auth.length > 0 && route.params.query.some((p) => p.type === 'integer' && typeof deref(suite.schemas[route.id]!.query[p.name], suite.defs).maximum === 'number'),
  async run(ctx) {
    const { path } = await ctx.world.pathFor(ctx.route);
    const base = requiredParams(ctx);
    for (const p of ctx.route.params.query) {
      const schema = deref(ctx.suite.schemas[ctx.route.id]!.query[p.name], ctx.suite.defs);
      if (p.type !== 'integer' || typeof schema.maximum !== 'number') continue;
      // Without a minimum, only the maximum bounds the parameter (a spec's `limit` may well accept -1: museum).
      const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      for (const inside of [min ?? Math.min(0, schema.maximum), schema.maximum]) expectStatus(await send(ctx.target, ctx.route, { path, ...base, query: { ...base.query, [p.name]: String(inside) } }), ctx.route.success.status, `${p.name}=${inside}`);
      for (const outside of [...(min === undefined ? [] : [min - 1]), schema.maximum + 1, 'abc']) {
        expectError(await send(ctx.target, ctx.route, { path, ...base, query: { ...base.query, [p.name]: String(outside) } }), 400, 'INVALID_ARGUMENT', p.name, `${p.name}=${outside}`);
      }
    }
  },
};

export const headerBounds: Check = {
  name: 'limits: a header value beyond its bounds is 400 on the header',
  needs: 'a header parameter whose schema refuses some value',
  applies: (route, suite) => route.auth.length > 0 && route.params.header.some((p) => badValue(deref(suite.schemas[route.id]!.header[p.name], suite.defs)) !== undefined),
  async run(ctx) {
    const spec = await prepare(ctx);
    for (const p of ctx.route.params.header) {
      const bad = badValue(deref(ctx.suite.schemas[ctx.route.id]!.header[p.name], ctx.suite.defs));
      if (bad === undefined) continue;
      expectError(await send(ctx.target, ctx.route, { ...spec, headers: { ...spec.headers, [p.name]: bad } }), 400, 'INVALID_ARGUMENT', p.name, `${p.name}: ${bad.length} characters`);
    }
  },
};

export { validValue };
