// Error collectors (mode 'e'): one function per schema location, `(x, p, E) => boolean`, run only after the
// fast check failed. They report every violation as { path, message } (path: array of keys/indices from
// the validated root), continue past failures, and use the fast checks for the yes/no questions of
// anyOf/oneOf/not/if/contains. Extra allocation here is fine: this is the error path.
import { jsString, jsValue, propertyAccess } from '../../encode/index.js';
import { callCheck, refTarget } from './check.js';
import { Body, type Gen } from './context.js';
import { planDiscriminator } from './discriminator.js';
import { formatFunction } from './formats.js';
import {
  declaredExpr, enumExpr, eqExpr, groupGuard, hasInPlace, num, patternRe, schemaArray, schemaMap, stringList,
  typesCond, typesOf, type SchemaObject,
} from './keywords.js';
import { msg } from './messages.js';
import { childPointer, hasOwn, type DynContext } from './scope.js';

export function emitErrorFunction(g: Gen, name: string, ptr: string, outerCtx: DynContext): string {
  const b = new Body();
  const node = g.scope.get(ptr);
  if (node === undefined) throw new Error(`no schema at #${ptr}`);
  if (node === true) b.line('return true;');
  else if (node === false) {
    b.line(`E.push({ path: p.slice(), message: ${jsString(msg.notAllowed())} });`);
    b.line('return false;');
  } else {
    b.line('let ok = true;');
    emitErrors(g, b, node, ptr, g.scope.enter(outerCtx, ptr));
    b.line('return ok;');
  }
  return `function ${name}(x, p, E) {\n${b.text()}\n}`;
}

const push = (b: Body, path: string, message: string): void => {
  b.line(`E.push({ path: ${path === 'p' ? 'p.slice()' : path}, message: ${jsString(message)} });`);
  b.line('ok = false;');
};

/**
 * Collect errors of the subschema at `ptr` for value `v`, one level down at `key` (an expression) or at the
 * same path (null). `p` is one mutable path stack per validate() call: push/pop around the call, copy only
 * when an error is recorded, so valid subtrees allocate nothing.
 */
function child(g: Gen, b: Body, ptr: string, ctx: DynContext, v: string, key: string | null): void {
  const node = g.scope.get(ptr);
  if (node === true) return;
  if (node === false) push(b, key === null ? 'p' : at(key), msg.notAllowed());
  else if (key === null) b.line(`if (!${g.fn('e', ptr, ctx)}(${v}, p, E)) ok = false;`);
  else {
    b.line(`p.push(${key});`);
    b.line(`if (!${g.fn('e', ptr, ctx)}(${v}, p, E)) ok = false;`);
    b.line('p.pop();');
  }
}

const at = (key: string): string => `[...p, ${key}]`;

function guarded(b: Body, guard: string, emit: () => void): void {
  if (guard === 'dead') return;
  if (guard === 'bare') return emit();
  const start = b.lines.length;
  b.open(`if (${guard})`);
  const inner = b.lines.length;
  emit();
  b.close();
  if (b.lines.length === inner + 1) b.lines.length = start;
}

function emitErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext): void {
  const types = typesOf(s);
  if (types) {
    // A value of the wrong type gets that one error: the other keywords would only restate it.
    b.open(`if (!(${typesCond(types, 'x')}))`);
    b.line(`E.push({ path: p.slice(), message: ${jsString(msg.type(types))}, type: true });`);
    b.line('return false;');
    b.close();
  }
  if (hasOwn(s, 'const')) {
    b.open(`if (!(${eqExpr(g, 'x', s.const)}))`);
    push(b, 'p', msg.const(s.const));
    b.close();
  }
  if (Array.isArray(s.enum)) {
    b.open(`if (!(${enumExpr(g, 'x', s.enum)}))`);
    push(b, 'p', msg.enum(s.enum));
    b.close();
  }
  guarded(b, groupGuard(types, 'string', 'x'), () => stringErrors(g, b, s));
  guarded(b, groupGuard(types, 'number', 'x'), () => numberErrors(g, b, s));
  guarded(b, groupGuard(types, 'array', 'x'), () => arrayErrors(g, b, s, ptr, ctx));
  guarded(b, groupGuard(types, 'object', 'x'), () => objectErrors(g, b, s, ptr, ctx));
  inPlaceErrors(g, b, s, ptr, ctx);
  unevaluatedErrors(g, b, s, ptr, ctx, types);
}

function stringErrors(g: Gen, b: Body, s: SchemaObject): void {
  const min = num(s, 'minLength');
  const max = num(s, 'maxLength');
  if (min !== undefined && min > 0) {
    b.open(`if (${g.use('$cpLen')}(x) < ${jsValue(min)})`);
    push(b, 'p', msg.minLength(min));
    b.close();
  }
  if (max !== undefined) {
    b.open(`if (${g.use('$cpLen')}(x) > ${jsValue(max)})`);
    push(b, 'p', msg.maxLength(max));
    b.close();
  }
  if (typeof s.pattern === 'string') {
    b.open(`if (!${patternRe(g, s.pattern)}.test(x))`);
    push(b, 'p', msg.pattern(s.pattern));
    b.close();
  }
  if (g.options.assertFormats && typeof s.format === 'string') {
    const fn = formatFunction(s.format);
    if (fn) {
      g.formats.add(s.format);
      b.open(`if (!${fn}(x))`);
      push(b, 'p', msg.format(s.format));
      b.close();
    }
  }
}

function numberErrors(g: Gen, b: Body, s: SchemaObject): void {
  const bound = (k: 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum', op: string): void => {
    const n = num(s, k);
    if (n === undefined) return;
    b.open(`if (x ${op} ${jsValue(n)})`);
    push(b, 'p', msg[k](n));
    b.close();
  };
  bound('minimum', '<');
  bound('maximum', '>');
  bound('exclusiveMinimum', '<=');
  bound('exclusiveMaximum', '>=');
  const m = num(s, 'multipleOf');
  if (m !== undefined && m > 0) {
    b.open(Number.isInteger(m) ? `if (x % ${jsValue(m)} !== 0)` : `if (!${g.use('$multipleOf')}(x, ${jsValue(m)}))`);
    push(b, 'p', msg.multipleOf(m));
    b.close();
  }
}

/** The schema that applies to items past prefixItems: items, or a static unevaluatedItems. */
function restItems(s: SchemaObject, ptr: string): string | undefined {
  if (hasOwn(s, 'items')) return childPointer(ptr, 'items');
  const dyn = hasInPlace(s) || hasOwn(s, 'contains');
  return hasOwn(s, 'unevaluatedItems') && !dyn ? childPointer(ptr, 'unevaluatedItems') : undefined;
}

function restProps(s: SchemaObject, ptr: string): string | undefined {
  if (hasOwn(s, 'additionalProperties')) return childPointer(ptr, 'additionalProperties');
  return hasOwn(s, 'unevaluatedProperties') && !hasInPlace(s) ? childPointer(ptr, 'unevaluatedProperties') : undefined;
}

function arrayErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext): void {
  for (const [k, cmp] of [['minItems', '<'], ['maxItems', '>']] as const) {
    const n = num(s, k);
    if (n === undefined) continue;
    b.open(`if (x.length ${cmp} ${jsValue(n)})`);
    push(b, 'p', msg[k](n));
    b.close();
  }
  const prefix = schemaArray(s, 'prefixItems');
  prefix.forEach((_, i) => {
    b.open(`if (x.length > ${i})`);
    child(g, b, childPointer(ptr, 'prefixItems', i), ctx, `x[${i}]`, String(i));
    b.close();
  });
  const rest = restItems(s, ptr);
  if (rest !== undefined && g.scope.get(rest) !== true) {
    b.open(`for (let i = ${prefix.length}; i < x.length; i++)`);
    child(g, b, rest, ctx, 'x[i]', 'i');
    b.close();
  }
  if (hasOwn(s, 'contains')) {
    const min = num(s, 'minContains') ?? 1;
    const max = num(s, 'maxContains');
    b.line(`let contained = 0;`);
    b.line(`for (let i = 0; i < x.length; i++) if (${callCheck(g, childPointer(ptr, 'contains'), ctx, 'x[i]')}) contained++;`);
    b.open(`if (contained < ${jsValue(min)})`);
    push(b, 'p', msg.minContains(min));
    b.close();
    if (max !== undefined) {
      b.open(`if (contained > ${jsValue(max)})`);
      push(b, 'p', msg.maxContains(max));
      b.close();
    }
  }
  if (s.uniqueItems === true) {
    b.open(`if (!${g.use('$uniq')}(x))`);
    push(b, 'p', msg.uniqueItems());
    b.close();
  }
}

function objectErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext): void {
  const has = (k: string): string => `${g.use('$hasOwn')}.call(x, ${jsString(k)})`;
  for (const r of stringList(s.required)) {
    b.open(`if (!${has(r)})`);
    push(b, at(jsString(r)), msg.required());
    b.close();
  }
  for (const [k, cmp] of [['minProperties', '<'], ['maxProperties', '>']] as const) {
    const n = num(s, k);
    if (n === undefined) continue;
    b.open(`if (${g.use('$countKeys')}(x) ${cmp} ${jsValue(n)})`);
    push(b, 'p', msg[k](n));
    b.close();
  }
  const props = schemaMap(s, 'properties');
  for (const name of props) {
    const cp = childPointer(ptr, 'properties', name);
    if (g.scope.get(cp) === true) continue;
    b.open(`if (${has(name)})`);
    child(g, b, cp, ctx, propertyAccess('x', name), jsString(name));
    b.close();
  }
  const depReq = s.dependentRequired;
  if (hasOwn(s, 'dependentRequired') && typeof depReq === 'object' && depReq !== null) {
    for (const [k, list] of Object.entries(depReq)) {
      for (const need of stringList(list)) {
        b.open(`if (${has(k)} && !${has(need)})`);
        push(b, at(jsString(need)), msg.dependentRequired(k));
        b.close();
      }
    }
  }
  for (const k of schemaMap(s, 'dependentSchemas')) {
    b.open(`if (${has(k)})`);
    child(g, b, childPointer(ptr, 'dependentSchemas', k), ctx, 'x', null);
    b.close();
  }
  const patterns = schemaMap(s, 'patternProperties');
  const extra = restProps(s, ptr);
  const names = hasOwn(s, 'propertyNames') ? childPointer(ptr, 'propertyNames') : undefined;
  if (patterns.length === 0 && extra === undefined && names === undefined) return;
  b.open('for (const k in x)');
  b.line(`if (!${g.use('$hasOwn')}.call(x, k)) continue;`);
  if (names !== undefined && g.scope.get(names) !== true) {
    // Report a bad name at the property's own path, with the name schema's reason appended.
    b.line('const nameErrors = [];');
    b.line('p.push(k);');
    b.line(`const nameOk = ${g.fn('e', names, ctx)}(k, p, nameErrors);`);
    b.line('p.pop();');
    b.open('if (!nameOk)');
    b.line('ok = false;');
    b.line(`for (const e of nameErrors) E.push({ path: [...p, k], message: ${jsString(msg.propertyName())} + e.message });`);
    b.close();
  }
  if (patterns.length) b.line('let matched = false;');
  for (const pat of patterns) {
    b.open(`if (${patternRe(g, pat)}.test(k))`);
    b.line('matched = true;');
    child(g, b, childPointer(ptr, 'patternProperties', pat), ctx, 'x[k]', 'k');
    b.close();
  }
  if (extra !== undefined) {
    const cond = [declaredExpr(g, props, 'k'), ...(patterns.length ? ['matched'] : [])].join(' || ');
    if (cond !== 'false') b.open(`if (!(${cond}))`);
    child(g, b, extra, ctx, 'x[k]', 'k');
    if (cond !== 'false') b.close();
  }
  b.close();
}

function inPlaceErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext): void {
  for (const kw of ['$ref', '$dynamicRef'] as const) {
    const target = refTarget(g, s, ptr, ctx, kw);
    if (target !== undefined) child(g, b, target, ctx, 'x', null);
  }
  schemaArray(s, 'allOf').forEach((_, i) => child(g, b, childPointer(ptr, 'allOf', i), ctx, 'x', null));
  const anyOf = schemaArray(s, 'anyOf').map((_, i) => childPointer(ptr, 'anyOf', i));
  if (anyOf.length) {
    b.open(`if (!(${anyOf.map((p) => callCheck(g, p, ctx, 'x')).join(' || ')}))`);
    push(b, 'p', msg.anyOf());
    b.line(`for (const e of ${g.use('$best')}(x, p, [${anyOf.map((p) => g.fn('e', p, ctx)).join(', ')}])) E.push(e);`);
    b.close();
  }
  if (schemaArray(s, 'oneOf').length) oneOfErrors(g, b, s, ptr, ctx);
  if (hasOwn(s, 'not')) {
    b.open(`if (${callCheck(g, childPointer(ptr, 'not'), ctx, 'x')})`);
    push(b, 'p', msg.not());
    b.close();
  }
  if (hasOwn(s, 'if') && (hasOwn(s, 'then') || hasOwn(s, 'else'))) {
    b.open(`if (${callCheck(g, childPointer(ptr, 'if'), ctx, 'x')})`);
    if (hasOwn(s, 'then')) child(g, b, childPointer(ptr, 'then'), ctx, 'x', null);
    b.mid('} else {');
    if (hasOwn(s, 'else')) child(g, b, childPointer(ptr, 'else'), ctx, 'x', null);
    b.close();
  }
}

function oneOfErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext): void {
  const branches = schemaArray(s, 'oneOf').map((_, i) => childPointer(ptr, 'oneOf', i));
  b.line(`let matches = 0;`);
  for (const p of branches) b.line(`if (${callCheck(g, p, ctx, 'x')}) matches++;`);
  b.open('if (matches > 1)');
  push(b, 'p', msg.oneOfMany());
  b.mid('} else if (matches === 0) {');
  const plan = planDiscriminator(g.scope, ptr, s);
  const generic = (): void => {
    push(b, 'p', msg.oneOfNone());
    b.line(`for (const e of ${g.use('$best')}(x, p, [${branches.map((p) => g.fn('e', p, ctx)).join(', ')}])) E.push(e);`);
  };
  if (plan && plan.designates.size > 0) {
    // The discriminator names the intended branch: report that branch's errors, or a bad/missing tag.
    const pn = jsString(plan.propertyName);
    const allowed = [...plan.designates.keys()];
    b.open(`if (typeof x === "object" && x !== null && !Array.isArray(x))`);
    b.open(`if (!${g.use('$hasOwn')}.call(x, ${pn}))`);
    push(b, at(pn), msg.required());
    b.mid(`} else switch (x[${pn}]) {`);
    for (const [value, i] of plan.designates) {
      b.line(`case ${jsString(value)}:`);
      child(g, b, branches[i]!, ctx, 'x', null);
      b.line('break;');
    }
    b.line('default:');
    if (plan.open.length === 0) push(b, at(pn), msg.enum(allowed));
    else generic();
    b.close();
    b.mid('} else {');
    generic();
    b.close();
  } else generic();
  b.close();
}

/** unevaluatedProperties/Items that depend on in-place annotations: gather them, then check the rest. */
function unevaluatedErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, types: string[] | undefined): void {
  const inPlace = hasInPlace(s);
  const dynUP = hasOwn(s, 'unevaluatedProperties') && inPlace && !hasOwn(s, 'additionalProperties');
  const dynUI = hasOwn(s, 'unevaluatedItems') && (inPlace || hasOwn(s, 'contains')) && !hasOwn(s, 'items');
  if (!dynUP && !dynUI) return;
  b.line('const evaluated = new Set();');
  const merge = (p: string): void => {
    if (g.scope.get(p) === true) return;
    b.line(`{ const t = new Set(); if (${callCheck(g, p, ctx, 'x', 't')}) ${g.use('$merge')}(evaluated, t); }`);
  };
  // Annotations of adjacent keywords.
  if (dynUP) {
    guarded(b, groupGuard(types, 'object', 'x'), () => {
      const props = schemaMap(s, 'properties');
      const patterns = schemaMap(s, 'patternProperties');
      for (const name of props) b.line(`if (${g.use('$hasOwn')}.call(x, ${jsString(name)})) evaluated.add(${jsString(name)});`);
      if (patterns.length) {
        const cond = patterns.map((p) => `${patternRe(g, p)}.test(k)`).join(' || ');
        b.line(`for (const k in x) if (${g.use('$hasOwn')}.call(x, k) && (${cond})) evaluated.add(k);`);
      }
      for (const k of schemaMap(s, 'dependentSchemas')) {
        b.open(`if (${g.use('$hasOwn')}.call(x, ${jsString(k)}))`);
        merge(childPointer(ptr, 'dependentSchemas', k));
        b.close();
      }
    });
  }
  if (dynUI) {
    guarded(b, groupGuard(types, 'array', 'x'), () => {
      const n = schemaArray(s, 'prefixItems').length;
      if (n) b.line(`for (let i = 0; i < x.length && i < ${n}; i++) evaluated.add(i);`);
      if (hasOwn(s, 'contains')) b.line(`for (let i = 0; i < x.length; i++) if (${callCheck(g, childPointer(ptr, 'contains'), ctx, 'x[i]')}) evaluated.add(i);`);
    });
  }
  for (const kw of ['$ref', '$dynamicRef'] as const) {
    const target = refTarget(g, s, ptr, ctx, kw);
    if (target !== undefined) merge(target);
  }
  for (const kw of ['allOf', 'anyOf', 'oneOf'] as const) schemaArray(s, kw).forEach((_, i) => merge(childPointer(ptr, kw, i)));
  if (hasOwn(s, 'if')) {
    b.open(`if (${callCheck(g, childPointer(ptr, 'if'), ctx, 'x')})`);
    merge(childPointer(ptr, 'if'));
    if (hasOwn(s, 'then')) merge(childPointer(ptr, 'then'));
    b.mid('} else {');
    if (hasOwn(s, 'else')) merge(childPointer(ptr, 'else'));
    b.close();
  }
  if (dynUP) {
    guarded(b, groupGuard(types, 'object', 'x'), () => {
      b.open('for (const k in x)');
      b.open(`if (${g.use('$hasOwn')}.call(x, k) && !evaluated.has(k))`);
      child(g, b, childPointer(ptr, 'unevaluatedProperties'), ctx, 'x[k]', 'k');
      b.close();
      b.close();
    });
  }
  if (dynUI) {
    guarded(b, groupGuard(types, 'array', 'x'), () => {
      b.open('for (let i = 0; i < x.length; i++)');
      b.open('if (!evaluated.has(i))');
      child(g, b, childPointer(ptr, 'unevaluatedItems'), ctx, 'x[i]', 'i');
      b.close();
      b.close();
    });
  }
}
