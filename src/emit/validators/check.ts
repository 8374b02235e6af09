// Fast boolean checks. Mode 'c' returns true/false with straight-line code and no allocation on the valid
// path; mode 'a' additionally records evaluated property names / item indices into the Set `ev` (needed
// only under unevaluatedProperties/unevaluatedItems). Subschemas applied conjunctively (properties, items,
// allOf, then/else, ...) are inlined and fail with `return false`; subschemas whose failure does not fail
// the parent (anyOf, oneOf, not, if, contains) and every $ref target become separate functions.
import { jsString, jsValue, propertyAccess } from '../../encode/index.js';
import { Body, type Gen } from './context.js';
import { planDiscriminator } from './discriminator.js';
import { formatFunction } from './formats.js';
import {
  declaredExpr, enumExpr, eqExpr, groupGuard, hasInPlace, num, patternRe, schemaArray, schemaMap, stringList,
  typesCond, typesOf, type SchemaObject,
} from './keywords.js';
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
    b.line('return false;');
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
  if (types) b.line(`if (!(${typesCond(types, x)})) return false;`);
  if (hasOwn(s, 'const')) b.line(`if (!(${eqExpr(g, x, s.const)})) return false;`);
  if (Array.isArray(s.enum)) b.line(`if (!(${enumExpr(g, x, s.enum)})) return false;`);

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
    b.line('return false;');
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
  if (min !== undefined && min > 0) b.line(`if (${x}.length < ${jsValue(min)} || (${x}.length < ${jsValue(2 * min)} && ${g.use('$cpLen')}(${x}) < ${jsValue(min)})) return false;`);
  if (max !== undefined) b.line(`if (${x}.length > ${jsValue(max)} && ${g.use('$cpLen')}(${x}) > ${jsValue(max)}) return false;`);
  if (typeof s.pattern === 'string') b.line(`if (!${patternRe(g, s.pattern)}.test(${x})) return false;`);
  if (g.options.assertFormats && typeof s.format === 'string') {
    const fn = formatFunction(s.format);
    if (fn) {
      g.formats.add(s.format);
      b.line(`if (!${fn}(${x})) return false;`);
    }
  }
}

function emitNumber(g: Gen, b: Body, s: SchemaObject, x: string): void {
  const bound = (k: string, op: string): void => {
    const n = num(s, k);
    if (n !== undefined) b.line(`if (${x} ${op} ${jsValue(n)}) return false;`);
  };
  bound('minimum', '<');
  bound('maximum', '>');
  bound('exclusiveMinimum', '<=');
  bound('exclusiveMaximum', '>=');
  const m = num(s, 'multipleOf');
  if (m !== undefined && m > 0) {
    // For an integer divisor % is exact on doubles; fractional divisors need decimal arithmetic.
    if (Number.isInteger(m)) b.line(`if (${x} % ${jsValue(m)} !== 0) return false;`);
    else b.line(`if (!${g.use('$multipleOf')}(${x}, ${jsValue(m)})) return false;`);
  }
}

function emitArray(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, ev: string | null, staticUI: string | undefined): void {
  const minItems = num(s, 'minItems');
  const maxItems = num(s, 'maxItems');
  if (minItems !== undefined && minItems > 0) b.line(`if (${x}.length < ${jsValue(minItems)}) return false;`);
  if (maxItems !== undefined) b.line(`if (${x}.length > ${jsValue(maxItems)}) return false;`);
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
    if (node === false) b.line(`if (${x}.length > ${prefix.length}) return false;`);
    else if (node !== true) {
      const i = b.v('i');
      b.open(`for (let ${i} = ${prefix.length}; ${i} < ${x}.length; ${i}++)`);
      emitChild(g, b, rest, ctx, `${x}[${i}]`);
      b.close();
    }
    if (ev !== null) b.line(`${g.use('$addAll')}(${ev}, ${x});`);
  }
  if (hasOwn(s, 'contains')) emitContains(g, b, s, ptr, ctx, x, ev);
  if (s.uniqueItems === true) b.line(`if (!${g.use('$uniq')}(${x})) return false;`);
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
  if (min > 0) b.line(`if (${n} < ${jsValue(min)}) return false;`);
  if (max !== undefined) b.line(`if (${n} > ${jsValue(max)}) return false;`);
}

function emitObject(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, ev: string | null, staticUP: string | undefined): void {
  const has = (k: string): string => `${g.use('$hasOwn')}.call(${x}, ${jsString(k)})`;
  const required = stringList(s.required);
  for (const r of required) b.line(`if (!${has(r)}) return false;`);
  const minP = num(s, 'minProperties');
  const maxP = num(s, 'maxProperties');
  if ((minP !== undefined && minP > 0) || maxP !== undefined) {
    const n = b.v('n');
    b.line(`const ${n} = ${g.use('$countKeys')}(${x});`);
    if (minP !== undefined && minP > 0) b.line(`if (${n} < ${jsValue(minP)}) return false;`);
    if (maxP !== undefined) b.line(`if (${n} > ${jsValue(maxP)}) return false;`);
  }
  const props = schemaMap(s, 'properties');
  for (const name of props) {
    const cp = childPointer(ptr, 'properties', name);
    if (g.scope.get(cp) === true && ev === null) continue;
    const isReq = required.includes(name);
    if (!isReq) b.open(`if (${has(name)})`);
    emitChild(g, b, cp, ctx, propertyAccess(x, name));
    if (ev !== null) b.line(`${ev}.add(${jsString(name)});`);
    if (!isReq) b.close();
  }
  const depReq = s.dependentRequired;
  if (hasOwn(s, 'dependentRequired') && typeof depReq === 'object' && depReq !== null) {
    for (const [k, list] of Object.entries(depReq)) {
      const need = stringList(list);
      if (need.length) b.line(`if (${has(k)} && !(${need.map(has).join(' && ')})) return false;`);
    }
  }
  for (const k of schemaMap(s, 'dependentSchemas')) {
    b.open(`if (${has(k)})`);
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
  b.line(`if (!${g.use('$hasOwn')}.call(${x}, ${k})) continue;`);
  if (namesLive) emitNode(g, b, names!, ctx, k, null);
  const matched = extraLive && patterns.length > 0 ? b.v('m') : undefined;
  if (matched) b.line(`let ${matched} = false;`);
  for (const p of patterns) {
    const cp = childPointer(ptr, 'patternProperties', p);
    if (g.scope.get(cp) === true && ev === null && !matched) continue;
    b.open(`if (${patternRe(g, p)}.test(${k}))`);
    if (matched) b.line(`${matched} = true;`);
    emitChild(g, b, cp, ctx, `${x}[${k}]`);
    if (ev !== null) b.line(`${ev}.add(${k});`);
    b.close();
  }
  if (extraLive) {
    const cond = [declaredExpr(g, props, k), ...(matched ? [matched] : [])].join(' || ');
    if (cond !== 'false') b.open(`if (!(${cond}))`);
    if (extraNode === false) b.line('return false;');
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
    if (target !== undefined) b.line(`if (!${callCheck(g, target, ctx, x, ev)}) return false;`);
  }
  schemaArray(s, 'allOf').forEach((_, i) => emitNode(g, b, childPointer(ptr, 'allOf', i), ctx, x, ev));
  const anyOf = schemaArray(s, 'anyOf').map((_, i) => childPointer(ptr, 'anyOf', i));
  if (anyOf.length) {
    if (ev === null) b.line(`if (!(${anyOf.map((p) => callCheck(g, p, ctx, x)).join(' || ')})) return false;`);
    else {
      // Every passing branch contributes annotations, so no short-circuit here.
      const ok = b.v('ok');
      b.line(`let ${ok} = false;`);
      for (const p of anyOf) {
        const t = b.v('t');
        b.line(`{ const ${t} = new Set(); if (${callCheck(g, p, ctx, x, t)}) { ${ok} = true; ${g.use('$merge')}(${ev}, ${t}); } }`);
      }
      b.line(`if (!${ok}) return false;`);
    }
  }
  if (schemaArray(s, 'oneOf').length) emitOneOf(g, b, s, ptr, ctx, x, ev);
  if (hasOwn(s, 'not')) b.line(`if (${callCheck(g, childPointer(ptr, 'not'), ctx, x)}) return false;`);
  if (hasOwn(s, 'if')) emitIf(g, b, s, ptr, ctx, x, ev);
}

function emitOneOf(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, ev: string | null): void {
  const branches = schemaArray(s, 'oneOf').map((_, i) => childPointer(ptr, 'oneOf', i));
  const n = b.v('n');
  b.line(`let ${n} = 0;`);
  if (ev !== null) {
    const keep = b.v('t');
    b.line(`let ${keep} = null;`);
    for (const p of branches) {
      const t = b.v('t');
      b.line(`{ const ${t} = new Set(); if (${callCheck(g, p, ctx, x, t)}) { ${n}++; ${keep} = ${t}; } }`);
    }
    b.line(`if (${n} !== 1) return false;`);
    b.line(`${g.use('$merge')}(${ev}, ${keep});`);
    return;
  }
  const count = (list: number[]): void => {
    for (const i of list) b.line(`if (${callCheck(g, branches[i]!, ctx, x)} && ++${n} > 1) return false;`);
  };
  const plan = planDiscriminator(g.scope, ptr, s);
  if (plan && plan.byValue.size > 0) {
    // Branches that pin the discriminator property to other values cannot match: skip them.
    const pn = jsString(plan.propertyName);
    b.open(`if (typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x}) && ${g.use('$hasOwn')}.call(${x}, ${pn}))`);
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
  b.line(`if (${n} !== 1) return false;`);
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
