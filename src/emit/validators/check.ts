// Fast boolean checks. Mode 'c' returns true/false with straight-line code and no allocation on the valid
// path; mode 'a' additionally records evaluated property names / item indices into the Set `ev` (needed
// only under unevaluatedProperties/unevaluatedItems). Subschemas applied conjunctively (properties, items,
// allOf, then/else, ...) are inlined and fail with `b.fail` (`return false`, or leaving a guard block when the
// code is inlined into an error collector); subschemas whose failure does not fail the parent (anyOf, oneOf,
// not, if, contains) become separate functions, and so do `$ref` targets, except small ones (Gen.inlineRef).
// Property presence: see presentExpr in keywords.ts.
import { jsString, jsValue } from '../../encode/index.js';
import { Body, type Gen } from './context.js';
import { planDiscriminator } from './discriminator.js';
import { provablyDisjoint } from './disjoint.js';
import { formatFunction } from './formats.js';
import { absentExpr, declaredExpr, enumExpr, eqExpr, groupGuard, openPresent, patternTest, presentExpr, requirePresent, typesCond } from './keywords.js';
import {
  hasInPlace, inlineableTarget, num, schemaArray, schemaMap, stringList, typesOf, valuesImplyType, type SchemaObject,
} from './schema-facts.js';
import { childPointer, hasOwn, type DynContext } from './scope.js';

export function emitCheckFunction(g: Gen, name: string, ptr: string, ctx: DynContext, mode: 'c' | 'a'): string {
  const b = new Body();
  emitNode(g, b, ptr, ctx, 'x', mode === 'a' ? 'ev' : null);
  const params = mode === 'a' ? 'x, ev' : 'x';
  return `function ${name}(${params}) {\n${b.text()}${b.lines.length ? '\n' : ''}  return true;\n}`;
}

/** Expression calling the check for a subschema location: boolean schemas fold to a literal. */
export function callCheck(g: Gen, ptr: string, ctx: DynContext, x: string, ev: string | null = null): string {
  const node = g.scope.get(ptr);
  if (node === true && ev === null) return 'true';
  if (node === false) return 'false';
  return ev === null ? `${g.fn('c', ptr, ctx)}(${x})` : `${g.fn('a', ptr, ctx)}(${x}, ${ev})`;
}

/** Resolve `$ref` / `$dynamicRef` of the schema at `ptr`; an unresolvable reference is a compile error. */
export function refTarget(g: Gen, s: SchemaObject, ptr: string, ctx: DynContext, kw: '$ref' | '$dynamicRef'): string | undefined {
  const ref = s[kw];
  if (!hasOwn(s, kw) || typeof ref !== 'string') return undefined;
  const target = kw === '$ref' ? g.scope.resolve(ref, ptr) : g.scope.resolveDynamic(ref, ptr, ctx);
  if (target === undefined) throw new Error(`cannot resolve ${kw} ${JSON.stringify(ref)} at #${ptr}`);
  return target;
}

/** Inline the checks of the schema at `ptr` against the value in variable `x`. */
export function emitNode(g: Gen, b: Body, ptr: string, outerCtx: DynContext, x: string, ev: string | null): void {
  const node = g.scope.get(ptr);
  if (node === undefined) throw new Error(`no schema at #${ptr}`);
  if (node === true) return;
  if (node === false) {
    b.line(b.fail);
    return;
  }
  const s = node;
  const ctx = g.scope.enter(outerCtx, ptr);
  const inPlace = hasInPlace(s);
  const up = hasOwn(s, 'unevaluatedProperties') ? childPointer(ptr, 'unevaluatedProperties') : undefined;
  const ui = hasOwn(s, 'unevaluatedItems') ? childPointer(ptr, 'unevaluatedItems') : undefined;
  // unevaluated* needs run-time annotations only when in-place applicators (or adjacent contains) can add
  // some; otherwise it is equivalent to additionalProperties / items and is compiled that way.
  const dynUP = up !== undefined && inPlace && !hasOwn(s, 'additionalProperties');
  const dynUI = ui !== undefined && (inPlace || hasOwn(s, 'contains')) && !hasOwn(s, 'items');
  let evHere = ev;
  if (dynUP || dynUI) {
    evHere = b.v('ev');
    b.line(`const ${evHere} = new Set();`);
  }
  const types = typesOf(s);
  if (types && !valuesImplyType(s, types)) b.line(`if (!(${typesCond(types, x)})) ${b.fail}`);
  if (hasOwn(s, 'const')) b.line(`if (!(${eqExpr(g, x, s.const)})) ${b.fail}`);
  if (Array.isArray(s.enum)) b.line(`if (!(${enumExpr(g, x, s.enum)})) ${b.fail}`);

  guarded(b, groupGuard(types, 'string', x), () => emitString(g, b, s, x));
  guarded(b, groupGuard(types, 'number', x), () => emitNumber(g, b, s, x));
  guarded(b, groupGuard(types, 'array', x), () => emitArray(g, b, s, ptr, ctx, x, evHere, dynUI ? undefined : ui));
  guarded(b, groupGuard(types, 'object', x), () => emitObject(g, b, s, ptr, ctx, x, evHere, dynUP ? undefined : up));

  emitInPlace(g, b, s, ptr, ctx, x, evHere);

  if (dynUP) {
    guarded(b, groupGuard(types, 'object', x), () => {
      const k = b.v('k');
      b.open(`for (const ${k} in ${x})`);
      b.open(`if (${g.use('$hasOwn')}.call(${x}, ${k}) && !${evHere}.has(${k}))`);
      emitChild(g, b, childPointer(ptr, 'unevaluatedProperties'), ctx, `${x}[${k}]`);
      b.close();
      b.close();
    });
  }
  if (dynUI) {
    guarded(b, groupGuard(types, 'array', x), () => {
      const i = b.v('i');
      b.open(`for (let ${i} = 0; ${i} < ${x}.length; ${i}++)`);
      b.open(`if (!${evHere}.has(${i}))`);
      emitChild(g, b, childPointer(ptr, 'unevaluatedItems'), ctx, `${x}[${i}]`);
      b.close();
      b.close();
    });
  }
  if (ev !== null && evHere !== ev) {
    b.line(`${g.use('$merge')}(${ev}, ${evHere});`);
    if (dynUP && dynUI) b.line(`${g.use('$addAll')}(${ev}, ${x});`);
    else if (dynUP) b.line(`if (!Array.isArray(${x})) ${g.use('$addAll')}(${ev}, ${x});`);
    else if (dynUI) b.line(`if (Array.isArray(${x})) ${g.use('$addAll')}(${ev}, ${x});`);
  }
}

function guarded(b: Body, guard: string, emit: () => void): void {
  if (guard === 'dead') return;
  if (guard === 'bare') {
    emit();
    return;
  }
  const start = b.lines.length;
  b.open(`if (${guard})`);
  const inner = b.lines.length;
  emit();
  b.close();
  if (b.lines.length === inner + 1) b.lines.length = start; // nothing applied: drop the empty guard
}

/** Check a value at another instance location (property value, item): bind it once, then inline. */
function emitChild(g: Gen, b: Body, ptr: string, ctx: DynContext, valueExpr: string): void {
  const node = g.scope.get(ptr);
  if (node === true) return;
  if (node === false) {
    b.line(b.fail);
    return;
  }
  const v = b.v('v');
  b.line(`const ${v} = ${valueExpr};`);
  emitNode(g, b, ptr, ctx, v, null);
}

function emitString(g: Gen, b: Body, s: SchemaObject, x: string): void {
  const min = num(s, 'minLength');
  const max = num(s, 'maxLength');
  // x.length counts UTF-16 units (>= code points, <= 2x code points): count code points only when it matters.
  // A non-empty string has at least one code point: minLength 1 needs no counting.
  if (min === 1) b.line(`if (${x}.length < 1) ${b.fail}`);
  else if (min !== undefined && min > 0) b.line(`if (${x}.length < ${jsValue(min)} || (${x}.length < ${jsValue(2 * min)} && ${g.use('$cpLen')}(${x}) < ${jsValue(min)})) ${b.fail}`);
  if (max !== undefined) b.line(`if (${x}.length > ${jsValue(max)} && ${g.use('$cpLen')}(${x}) > ${jsValue(max)}) ${b.fail}`);
  if (typeof s.pattern === 'string') b.line(`if (!${patternTest(g, s.pattern, x)}) ${b.fail}`);
  if (g.options.assertFormats && typeof s.format === 'string') {
    const fn = formatFunction(s.format);
    if (fn) {
      g.formats.add(s.format);
      b.line(`if (!${fn}(${x})) ${b.fail}`);
    }
  }
}

function emitNumber(g: Gen, b: Body, s: SchemaObject, x: string): void {
  const bound = (k: string, op: string): void => {
    const n = num(s, k);
    if (n !== undefined) b.line(`if (${x} ${op} ${jsValue(n)}) ${b.fail}`);
  };
  bound('minimum', '<');
  bound('maximum', '>');
  bound('exclusiveMinimum', '<=');
  bound('exclusiveMaximum', '>=');
  const m = num(s, 'multipleOf');
  if (m !== undefined && m > 0) {
    // For an integer divisor % is exact on doubles; fractional divisors need decimal arithmetic.
    if (Number.isInteger(m)) b.line(`if (${x} % ${jsValue(m)} !== 0) ${b.fail}`);
    else b.line(`if (!${g.use('$multipleOf')}(${x}, ${jsValue(m)})) ${b.fail}`);
  }
}

function emitArray(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, ev: string | null, staticUI: string | undefined): void {
  const minItems = num(s, 'minItems');
  const maxItems = num(s, 'maxItems');
  if (minItems !== undefined && minItems > 0) b.line(`if (${x}.length < ${jsValue(minItems)}) ${b.fail}`);
  if (maxItems !== undefined) b.line(`if (${x}.length > ${jsValue(maxItems)}) ${b.fail}`);
  const prefix = schemaArray(s, 'prefixItems');
  prefix.forEach((_, i) => {
    const cp = childPointer(ptr, 'prefixItems', i);
    if (g.scope.get(cp) === true && ev === null) return;
    b.open(`if (${x}.length > ${i})`);
    emitChild(g, b, cp, ctx, `${x}[${i}]`);
    if (ev !== null) b.line(`${ev}.add(${i});`);
    b.close();
  });
  // items; or unevaluatedItems when nothing in place can evaluate items (then it means the same thing).
  const rest = hasOwn(s, 'items') ? childPointer(ptr, 'items') : staticUI;
  if (rest !== undefined) {
    const node = g.scope.get(rest);
    if (node === false) b.line(`if (${x}.length > ${prefix.length}) ${b.fail}`);
    else if (node !== true) {
      const i = b.v('i');
      b.open(`for (let ${i} = ${prefix.length}; ${i} < ${x}.length; ${i}++)`);
      emitChild(g, b, rest, ctx, `${x}[${i}]`);
      b.close();
    }
    if (ev !== null) b.line(`${g.use('$addAll')}(${ev}, ${x});`);
  }
  if (hasOwn(s, 'contains')) emitContains(g, b, s, ptr, ctx, x, ev);
  if (s.uniqueItems === true) b.line(`if (!${g.use('$uniq')}(${x})) ${b.fail}`);
}

function emitContains(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, ev: string | null): void {
  const min = num(s, 'minContains') ?? 1;
  const max = num(s, 'maxContains');
  if (min === 0 && max === undefined && ev === null) return;
  const n = b.v('n');
  const i = b.v('i');
  b.line(`let ${n} = 0;`);
  b.open(`for (let ${i} = 0; ${i} < ${x}.length; ${i}++)`);
  b.open(`if (${callCheck(g, childPointer(ptr, 'contains'), ctx, `${x}[${i}]`)})`);
  b.line(`${n}++;`);
  if (ev !== null) b.line(`${ev}.add(${i});`);
  else if (max === undefined) b.line(`if (${n} >= ${jsValue(min)}) break;`); // enough matches: stop early
  b.close();
  b.close();
  if (min > 0) b.line(`if (${n} < ${jsValue(min)}) ${b.fail}`);
  if (max !== undefined) b.line(`if (${n} > ${jsValue(max)}) ${b.fail}`);
}

function emitObject(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, ev: string | null, staticUP: string | undefined): void {
  const required = stringList(s.required);
  const props = schemaMap(s, 'properties');
  // A required property with a schema is tested where it is read (one read); the others up front.
  const live = (name: string): boolean => !(g.scope.get(childPointer(ptr, 'properties', name)) === true && ev === null);
  const readWithSchema = new Set(props.filter((name) => required.includes(name) && live(name)));
  for (const r of new Set(required)) if (!readWithSchema.has(r)) b.line(`if (${absentExpr(g, x, r)}) ${b.fail}`);
  const minP = num(s, 'minProperties');
  const maxP = num(s, 'maxProperties');
  if ((minP !== undefined && minP > 0) || maxP !== undefined) {
    const n = b.v('n');
    b.line(`const ${n} = ${g.use('$countKeys')}(${x});`);
    if (minP !== undefined && minP > 0) b.line(`if (${n} < ${jsValue(minP)}) ${b.fail}`);
    if (maxP !== undefined) b.line(`if (${n} > ${jsValue(maxP)}) ${b.fail}`);
  }
  for (const name of props) {
    if (!live(name)) continue;
    const cp = childPointer(ptr, 'properties', name);
    const isReq = readWithSchema.has(name);
    const v = isReq ? requirePresent(g, b, x, name, b.fail) : openPresent(g, b, x, name);
    emitNode(g, b, cp, ctx, v, null);
    if (ev !== null) b.line(`${ev}.add(${jsString(name)});`);
    if (!isReq) b.close();
  }
  const depReq = s.dependentRequired;
  if (hasOwn(s, 'dependentRequired') && typeof depReq === 'object' && depReq !== null) {
    for (const [k, list] of Object.entries(depReq)) {
      const need = stringList(list);
      if (need.length) b.line(`if (${presentExpr(g, x, k)} && (${need.map((n) => absentExpr(g, x, n)).join(' || ')})) ${b.fail}`);
    }
  }
  for (const k of schemaMap(s, 'dependentSchemas')) {
    b.open(`if (${presentExpr(g, x, k)})`);
    emitNode(g, b, childPointer(ptr, 'dependentSchemas', k), ctx, x, ev);
    b.close();
  }
  emitKeyLoop(g, b, s, ptr, ctx, x, ev, props, staticUP);
}

/** One pass over the keys for propertyNames, patternProperties and additionalProperties. */
function emitKeyLoop(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, ev: string | null, props: string[], staticUP: string | undefined): void {
  const patterns = schemaMap(s, 'patternProperties');
  const extra = hasOwn(s, 'additionalProperties') ? childPointer(ptr, 'additionalProperties') : staticUP;
  const extraNode = extra === undefined ? undefined : g.scope.get(extra);
  const names = hasOwn(s, 'propertyNames') ? childPointer(ptr, 'propertyNames') : undefined;
  const namesLive = names !== undefined && g.scope.get(names) !== true;
  const extraLive = extra !== undefined && (extraNode !== true || ev !== null);
  const patternsLive = patterns.some((p) => g.scope.get(childPointer(ptr, 'patternProperties', p)) !== true) || (ev !== null && patterns.length > 0);
  if (!namesLive && !extraLive && !patternsLive) return;
  const k = b.v('k');
  b.open(`for (const ${k} in ${x})`);
  if (!namesLive && patterns.length === 0 && ev === null && props.length > 0) {
    // Only additionalProperties: a declared name needs nothing, so test it before the own-property lookup.
    b.line(`if (${declaredExpr(g, props, k)} || !${g.use('$hasOwn')}.call(${x}, ${k})) continue;`);
    if (extraNode === false) b.line(b.fail);
    else emitChild(g, b, extra!, ctx, `${x}[${k}]`);
    b.close();
    return;
  }
  b.line(`if (!${g.use('$hasOwn')}.call(${x}, ${k})) continue;`);
  if (namesLive) emitNode(g, b, names!, ctx, k, null);
  const matched = extraLive && patterns.length > 0 ? b.v('m') : undefined;
  if (matched) b.line(`let ${matched} = false;`);
  for (const p of patterns) {
    const cp = childPointer(ptr, 'patternProperties', p);
    if (g.scope.get(cp) === true && ev === null && !matched) continue;
    b.open(`if (${patternTest(g, p, k)})`);
    if (matched) b.line(`${matched} = true;`);
    emitChild(g, b, cp, ctx, `${x}[${k}]`);
    if (ev !== null) b.line(`${ev}.add(${k});`);
    b.close();
  }
  if (extraLive) {
    const cond = [declaredExpr(g, props, k), ...(matched ? [matched] : [])].join(' || ');
    if (cond !== 'false') b.open(`if (!(${cond}))`);
    if (extraNode === false) b.line(b.fail);
    else emitChild(g, b, extra!, ctx, `${x}[${k}]`);
    if (ev !== null) b.line(`${ev}.add(${k});`);
    if (cond !== 'false') b.close();
  }
  b.close();
}

/** $ref, $dynamicRef, allOf, anyOf, oneOf, not, if/then/else (dependentSchemas is with the object keywords). */
function emitInPlace(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, ev: string | null): void {
  for (const kw of ['$ref', '$dynamicRef'] as const) {
    const target = refTarget(g, s, ptr, ctx, kw);
    if (target === undefined) continue;
    const inline = inlineableTarget(g.scope.get(target)) || (ev === null && kw === '$ref' && g.inlineRef(target));
    if (!(inline && g.withInlined(target, () => emitNode(g, b, target, ctx, x, ev)))) b.line(`if (!${callCheck(g, target, ctx, x, ev)}) ${b.fail}`);
  }
  schemaArray(s, 'allOf').forEach((_, i) => emitNode(g, b, childPointer(ptr, 'allOf', i), ctx, x, ev));
  const anyOf = schemaArray(s, 'anyOf').map((_, i) => childPointer(ptr, 'anyOf', i));
  if (anyOf.length) {
    if (ev === null) b.line(`if (!(${anyOf.map((p) => callCheck(g, p, ctx, x)).join(' || ')})) ${b.fail}`);
    else {
      // Every passing branch contributes annotations, so no short-circuit here.
      const ok = b.v('ok');
      b.line(`let ${ok} = false;`);
      for (const p of anyOf) {
        const t = b.v('t');
        b.line(`{ const ${t} = new Set(); if (${callCheck(g, p, ctx, x, t)}) { ${ok} = true; ${g.use('$merge')}(${ev}, ${t}); } }`);
      }
      b.line(`if (!${ok}) ${b.fail}`);
    }
  }
  if (schemaArray(s, 'oneOf').length) emitOneOf(g, b, s, ptr, ctx, x, ev);
  if (hasOwn(s, 'not')) b.line(`if (${callCheck(g, childPointer(ptr, 'not'), ctx, x)}) ${b.fail}`);
  if (hasOwn(s, 'if')) emitIf(g, b, s, ptr, ctx, x, ev);
}

function emitOneOf(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, ev: string | null): void {
  const branches = schemaArray(s, 'oneOf').map((_, i) => childPointer(ptr, 'oneOf', i));
  if (ev === null && branches.length > 1 && provablyDisjoint(g.scope, branches)) {
    // No value can match two branches: "exactly one" is "at least one", which stops at the first match.
    b.line(`if (!(${branches.map((p) => callCheck(g, p, ctx, x)).join(' || ')})) ${b.fail}`);
    return;
  }
  const n = b.v('n');
  b.line(`let ${n} = 0;`);
  if (ev !== null) {
    const keep = b.v('t');
    b.line(`let ${keep} = null;`);
    for (const p of branches) {
      const t = b.v('t');
      b.line(`{ const ${t} = new Set(); if (${callCheck(g, p, ctx, x, t)}) { ${n}++; ${keep} = ${t}; } }`);
    }
    b.line(`if (${n} !== 1) ${b.fail}`);
    b.line(`${g.use('$merge')}(${ev}, ${keep});`);
    return;
  }
  const count = (list: number[]): void => {
    for (const i of list) b.line(`if (${callCheck(g, branches[i]!, ctx, x)} && ++${n} > 1) ${b.fail}`);
  };
  const plan = planDiscriminator(g.scope, ptr, s);
  if (plan && plan.byValue.size > 0) {
    // Branches that pin the discriminator property to other values cannot match: skip them.
    const pn = jsString(plan.propertyName);
    b.open(`if (typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x}) && ${presentExpr(g, x, plan.propertyName)})`);
    b.open(`switch (${x}[${pn}])`);
    for (const [value, list] of plan.byValue) {
      b.line(`case ${jsString(value)}:`);
      count([...list, ...plan.open].sort((a, c) => a - c));
      b.line('break;');
    }
    b.line('default:');
    count(plan.open);
    b.close();
    b.mid('} else {');
    count(branches.map((_, i) => i));
    b.close();
  } else count(branches.map((_, i) => i));
  b.line(`if (${n} !== 1) ${b.fail}`);
}

function emitIf(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, ev: string | null): void {
  const hasThen = hasOwn(s, 'then');
  const hasElse = hasOwn(s, 'else');
  if (!hasThen && !hasElse && ev === null) return; // `if` alone never fails the schema
  let cond: string;
  if (ev === null) cond = callCheck(g, childPointer(ptr, 'if'), ctx, x);
  else {
    const t = b.v('t');
    b.line(`const ${t} = new Set();`);
    cond = `${callCheck(g, childPointer(ptr, 'if'), ctx, x, t)} && (${g.use('$merge')}(${ev}, ${t}), true)`;
  }
  b.open(`if (${cond})`);
  if (hasThen) emitNode(g, b, childPointer(ptr, 'then'), ctx, x, ev);
  if (hasElse) {
    b.mid('} else {');
    emitNode(g, b, childPointer(ptr, 'else'), ctx, x, ev);
  }
  b.close();
}
