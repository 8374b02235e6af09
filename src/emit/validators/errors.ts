// Error collectors (mode 'e'): one function per schema location, `(x, p, E) => void`. validate() is one pass
// of the collector (the value is valid when it records nothing), so a collector reports a violation exactly
// where the fast check fails: every violation as { path, message, type } (path: array of keys/indices from
// the validated root), continuing past failures, with the fast checks answering the yes/no questions of
// anyOf/oneOf/not/if/contains.
//
// Like the fast checks, subschemas applied to a property, an item or the same value (properties, items,
// additionalProperties, allOf, then/else, leaf $ref targets, ...) are inlined; other $ref targets (behind
// their fast check, see callErrors), anyOf/oneOf branches and propertyNames get functions of their own.
// `p` is the path of the function's own `x`; an inlined node knows its path below `p` statically (key
// literals and loop variables), so a path array is built only when an error is recorded, and the valid parts
// of a value cost about what the fast check costs.
import { jsString, jsValue } from '../../encode/index.js';
import { callCheck, emitNode, refTarget } from './check.js';
import { Body, type Gen } from './context.js';
import { planDiscriminator } from './discriminator.js';
import { formatFunction } from './formats.js';
import { absentExpr, declaredExpr, enumExpr, eqExpr, groupGuard, openPresent, patternTest, presentExpr, typesCond } from './keywords.js';
import {
  hasInPlace, inlineableTarget, num, schemaArray, schemaMap, stringList, typesOf, type SchemaObject,
} from './schema-facts.js';
import { msg } from './messages.js';
import { childPointer, hasOwn, type DynContext } from './scope.js';

/** Path segments (JS expressions: string literals, loop variables) from `p` down to the current value. */
type Path = readonly string[];

export function emitErrorFunction(g: Gen, name: string, ptr: string, outerCtx: DynContext): string {
  const b = new Body();
  const node = g.scope.get(ptr);
  if (node === undefined) throw new Error(`no schema at #${ptr}`);
  errNode(g, b, ptr, outerCtx, 'x', [], true);
  return `function ${name}(x, p, E) {${b.lines.length ? `\n${b.text()}\n` : ''}}`;
}

/** A call recording an error at `path` (a `type` error marks the value's type as wrong, for $best). */
function errCall(g: Gen, path: Path, message: string, type = false): string {
  return errCallExpr(g, path, jsString(message), type);
}

/** Like errCall, with the message as a JS expression. */
function errCallExpr(g: Gen, path: Path, messageExpr: string, type = false): string {
  const m = `${messageExpr}${type ? ', true' : ''}`;
  switch (path.length) {
    case 0:
      return `${g.use('$E')}(E, p, ${m})`;
    case 1:
      return `${g.use('$E1')}(E, p, ${path[0]}, ${m})`;
    case 2:
      return `${g.use('$E2')}(E, p, ${path[0]}, ${path[1]}, ${m})`;
    default:
      return `${g.use('$EN')}(E, p, [${path.join(', ')}], ${m})`;
  }
}

function push(g: Gen, b: Body, path: Path, message: string, type = false): void {
  b.line(`${errCall(g, path, message, type)};`);
}

/** `if (cond)` record an error at `path`. */
function report(g: Gen, b: Body, cond: string, path: Path, message: string): void {
  b.line(`if (${cond}) ${errCall(g, path, message)};`);
}

/** Extend `p` by `path` around the code `emit` writes (for calls that take the path in `p`). */
function withPath(b: Body, path: Path, emit: () => void): void {
  if (path.length) b.line(`p.push(${path.join(', ')});`);
  emit();
  if (path.length) b.line(path.map(() => 'p.pop();').join(' '));
}

/**
 * Run the collector of another location on `x` (at `path`), only when its fast check fails: a valid part of
 * an invalid value costs the check, with no path bookkeeping. A small `$ref` target's check is inlined as a
 * guard block (failing code leaves the inner block; passing code leaves the outer one), so a valid value's
 * pass through the collector has no call either.
 */
function callErrors(g: Gen, b: Body, ptr: string, ctx: DynContext, x: string, path: Path): void {
  const node = g.scope.get(ptr);
  if (node === true) return;
  if (node === false) return push(g, b, path, msg.notAllowed());
  const f = g.fn('e', ptr, ctx);
  const collect = (): void => withPath(b, path, () => b.line(`${f}(${x}, p, E);`));
  if (g.inlineRef(ptr) && !g.isInlining(ptr)) {
    const done = b.v('ok');
    const bad = b.v('bad');
    b.open(`${done}:`);
    b.open(`${bad}:`);
    const outer = b.fail;
    b.fail = `break ${bad};`;
    g.withInlined(ptr, () => emitNode(g, b, ptr, ctx, x, null));
    b.fail = outer;
    b.line(`break ${done};`);
    b.close();
    collect();
    b.close();
    return;
  }
  b.open(`if (!${callCheck(g, ptr, ctx, x)})`);
  collect();
  b.close();
}

/** Collect the errors of the subschema at `ptr` for a value at another location (bound to a variable first). */
function inlineChild(g: Gen, b: Body, ptr: string, ctx: DynContext, valueExpr: string, path: Path): void {
  const node = g.scope.get(ptr);
  if (node === true) return;
  if (node === false) return push(g, b, path, msg.notAllowed());
  const v = b.v('v');
  b.line(`const ${v} = ${valueExpr};`);
  errNode(g, b, ptr, ctx, v, path, false);
}

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

/**
 * Inline the error collection of the schema at `ptr` for the value in variable `x` at `path`. At a function's
 * root a wrong type returns at once; inlined, the rest of the node goes in the `else` of the type test.
 */
function errNode(g: Gen, b: Body, ptr: string, outerCtx: DynContext, x: string, path: Path, root: boolean): void {
  const node = g.scope.get(ptr);
  if (node === undefined) throw new Error(`no schema at #${ptr}`);
  if (node === true) return;
  if (node === false) return push(g, b, path, msg.notAllowed());
  const s = node;
  const ctx = g.scope.enter(outerCtx, ptr);
  const types = typesOf(s);
  let mark = -1;
  if (types) {
    // A value of the wrong type gets that one error: the other keywords would only restate it.
    if (root) {
      b.open(`if (!(${typesCond(types, x)}))`);
      push(g, b, path, msg.type(types), true);
      b.line('return;');
      b.close();
    } else {
      b.line(`if (!(${typesCond(types, x)})) ${errCall(g, path, msg.type(types), true)};`);
      b.open('else');
      mark = b.lines.length;
    }
  }
  if (hasOwn(s, 'const')) {
    report(g, b, `!(${eqExpr(g, x, s.const)})`, path, msg.const(s.const));
  }
  if (Array.isArray(s.enum)) {
    report(g, b, `!(${enumExpr(g, x, s.enum)})`, path, msg.enum(s.enum));
  }
  guarded(b, groupGuard(types, 'string', x), () => stringErrors(g, b, s, x, path));
  guarded(b, groupGuard(types, 'number', x), () => numberErrors(g, b, s, x, path));
  guarded(b, groupGuard(types, 'array', x), () => arrayErrors(g, b, s, ptr, ctx, x, path));
  guarded(b, groupGuard(types, 'object', x), () => objectErrors(g, b, s, ptr, ctx, x, path));
  inPlaceErrors(g, b, s, ptr, ctx, x, path);
  unevaluatedErrors(g, b, s, ptr, ctx, x, path, types);
  if (mark >= 0) b.closeOrDrop(mark);
}

function stringErrors(g: Gen, b: Body, s: SchemaObject, x: string, path: Path): void {
  const min = num(s, 'minLength');
  const max = num(s, 'maxLength');
  // Code points are counted only when the UTF-16 length cannot decide (see the fast check).
  if (min !== undefined && min > 0) {
    const cond = min === 1 ? `${x}.length < 1` : `${x}.length < ${jsValue(min)} || (${x}.length < ${jsValue(2 * min)} && ${g.use('$cpLen')}(${x}) < ${jsValue(min)})`;
    report(g, b, cond, path, msg.minLength(min));
  }
  if (max !== undefined) {
    report(g, b, `${x}.length > ${jsValue(max)} && ${g.use('$cpLen')}(${x}) > ${jsValue(max)}`, path, msg.maxLength(max));
  }
  if (typeof s.pattern === 'string') {
    report(g, b, `!${patternTest(g, s.pattern, x)}`, path, msg.pattern(s.pattern));
  }
  if (g.options.assertFormats && typeof s.format === 'string') {
    const fn = formatFunction(s.format);
    if (fn) {
      g.formats.add(s.format);
      report(g, b, `!${fn}(${x})`, path, msg.format(s.format));
    }
  }
}

function numberErrors(g: Gen, b: Body, s: SchemaObject, x: string, path: Path): void {
  const bound = (k: 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum', op: string): void => {
    const n = num(s, k);
    if (n === undefined) return;
    report(g, b, `${x} ${op} ${jsValue(n)}`, path, msg[k](n));
  };
  bound('minimum', '<');
  bound('maximum', '>');
  bound('exclusiveMinimum', '<=');
  bound('exclusiveMaximum', '>=');
  const m = num(s, 'multipleOf');
  if (m !== undefined && m > 0) {
    report(g, b, Number.isInteger(m) ? `${x} % ${jsValue(m)} !== 0` : `!${g.use('$multipleOf')}(${x}, ${jsValue(m)})`, path, msg.multipleOf(m));
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

function arrayErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, path: Path): void {
  for (const [k, cmp] of [['minItems', '<'], ['maxItems', '>']] as const) {
    const n = num(s, k);
    if (n === undefined) continue;
    b.open(`if (${x}.length ${cmp} ${jsValue(n)})`);
    push(g, b, path, msg[k](n));
    b.close();
  }
  const prefix = schemaArray(s, 'prefixItems');
  prefix.forEach((_, i) => {
    const cp = childPointer(ptr, 'prefixItems', i);
    if (g.scope.get(cp) === true) return;
    b.open(`if (${x}.length > ${i})`);
    inlineChild(g, b, cp, ctx, `${x}[${i}]`, [...path, String(i)]);
    b.close();
  });
  const rest = restItems(s, ptr);
  if (rest !== undefined && g.scope.get(rest) !== true) {
    const i = b.v('i');
    b.open(`for (let ${i} = ${prefix.length}; ${i} < ${x}.length; ${i}++)`);
    inlineChild(g, b, rest, ctx, `${x}[${i}]`, [...path, i]);
    b.close();
  }
  if (hasOwn(s, 'contains')) {
    const min = num(s, 'minContains') ?? 1;
    const max = num(s, 'maxContains');
    const n = b.v('n');
    const i = b.v('i');
    b.line(`let ${n} = 0;`);
    b.line(`for (let ${i} = 0; ${i} < ${x}.length; ${i}++) if (${callCheck(g, childPointer(ptr, 'contains'), ctx, `${x}[${i}]`)}) ${n}++;`);
    report(g, b, `${n} < ${jsValue(min)}`, path, msg.minContains(min));
    if (max !== undefined) {
      report(g, b, `${n} > ${jsValue(max)}`, path, msg.maxContains(max));
    }
  }
  if (s.uniqueItems === true) {
    report(g, b, `!${g.use('$uniq')}(${x})`, path, msg.uniqueItems());
  }
}

function objectErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, path: Path): void {
  for (const r of stringList(s.required)) {
    report(g, b, `${absentExpr(g, x, r)}`, [...path, jsString(r)], msg.required());
  }
  for (const [k, cmp] of [['minProperties', '<'], ['maxProperties', '>']] as const) {
    const n = num(s, k);
    if (n === undefined) continue;
    b.open(`if (${g.use('$countKeys')}(${x}) ${cmp} ${jsValue(n)})`);
    push(g, b, path, msg[k](n));
    b.close();
  }
  const props = schemaMap(s, 'properties');
  for (const name of props) {
    const cp = childPointer(ptr, 'properties', name);
    if (g.scope.get(cp) === true) continue;
    const v = openPresent(g, b, x, name);
    errNode(g, b, cp, ctx, v, [...path, jsString(name)], false);
    b.close();
  }
  const depReq = s.dependentRequired;
  if (hasOwn(s, 'dependentRequired') && typeof depReq === 'object' && depReq !== null) {
    for (const [k, list] of Object.entries(depReq)) {
      for (const need of stringList(list)) {
        report(g, b, `${presentExpr(g, x, k)} && ${absentExpr(g, x, need)}`, [...path, jsString(need)], msg.dependentRequired(k));
      }
    }
  }
  for (const k of schemaMap(s, 'dependentSchemas')) {
    b.open(`if (${presentExpr(g, x, k)})`);
    errNode(g, b, childPointer(ptr, 'dependentSchemas', k), ctx, x, path, false);
    b.close();
  }
  const patterns = schemaMap(s, 'patternProperties');
  const extra = restProps(s, ptr);
  const names = hasOwn(s, 'propertyNames') ? childPointer(ptr, 'propertyNames') : undefined;
  const namesLive = names !== undefined && g.scope.get(names) !== true;
  const extraLive = extra !== undefined && g.scope.get(extra) !== true;
  if (patterns.length === 0 && !extraLive && !namesLive) return;
  const k = b.v('k');
  const at = [...path, k];
  b.open(`for (const ${k} in ${x})`);
  if (patterns.length === 0 && !namesLive && props.length > 0) {
    // Only additionalProperties: a declared name needs nothing, so test it before the own-property lookup.
    b.line(`if (${declaredExpr(g, props, k)} || !${g.use('$hasOwn')}.call(${x}, ${k})) continue;`);
    inlineChild(g, b, extra!, ctx, `${x}[${k}]`, at);
    b.close();
    return;
  }
  b.line(`if (!${g.use('$hasOwn')}.call(${x}, ${k})) continue;`);
  if (namesLive) {
    // Report a bad name at the property's own path, with the name schema's reason appended.
    const ne = b.v('ne');
    b.line(`const ${ne} = [];`);
    withPath(b, at, () => b.line(`${g.fn('e', names!, ctx)}(${k}, p, ${ne});`));
    b.line(`for (const e of ${ne}) ${errCallExpr(g, at, `${jsString(msg.propertyName())} + e.message`)};`);
  }
  const matched = patterns.length && extra !== undefined ? b.v('m') : undefined;
  if (matched) b.line(`let ${matched} = false;`);
  for (const pat of patterns) {
    const cp = childPointer(ptr, 'patternProperties', pat);
    if (g.scope.get(cp) === true && !matched) continue;
    b.open(`if (${patternTest(g, pat, k)})`);
    if (matched) b.line(`${matched} = true;`);
    inlineChild(g, b, cp, ctx, `${x}[${k}]`, at);
    b.close();
  }
  if (extra !== undefined) {
    const cond = [declaredExpr(g, props, k), ...(matched ? [matched] : [])].join(' || ');
    if (cond !== 'false') b.open(`if (!(${cond}))`);
    inlineChild(g, b, extra, ctx, `${x}[${k}]`, at);
    if (cond !== 'false') b.close();
  }
  b.close();
}

function inPlaceErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, path: Path): void {
  for (const kw of ['$ref', '$dynamicRef'] as const) {
    const target = refTarget(g, s, ptr, ctx, kw);
    if (target === undefined) continue;
    if (inlineableTarget(g.scope.get(target))) errNode(g, b, target, ctx, x, path, false);
    else callErrors(g, b, target, ctx, x, path);
  }
  schemaArray(s, 'allOf').forEach((_, i) => errNode(g, b, childPointer(ptr, 'allOf', i), ctx, x, path, false));
  const anyOf = schemaArray(s, 'anyOf').map((_, i) => childPointer(ptr, 'anyOf', i));
  if (anyOf.length) {
    b.open(`if (!(${anyOf.map((p) => callCheck(g, p, ctx, x)).join(' || ')}))`);
    push(g, b, path, msg.anyOf());
    bestOf(g, b, anyOf, ctx, x, path);
    b.close();
  }
  if (schemaArray(s, 'oneOf').length) oneOfErrors(g, b, s, ptr, ctx, x, path);
  if (hasOwn(s, 'not')) {
    report(g, b, `${callCheck(g, childPointer(ptr, 'not'), ctx, x)}`, path, msg.not());
  }
  if (hasOwn(s, 'if') && (hasOwn(s, 'then') || hasOwn(s, 'else'))) {
    b.open(`if (${callCheck(g, childPointer(ptr, 'if'), ctx, x)})`);
    if (hasOwn(s, 'then')) errNode(g, b, childPointer(ptr, 'then'), ctx, x, path, false);
    if (hasOwn(s, 'else')) {
      b.mid('} else {');
      const mark = b.lines.length;
      errNode(g, b, childPointer(ptr, 'else'), ctx, x, path, false);
      b.closeElse(mark);
    } else b.close();
  }
}

/** The errors of the closest of several alternatives (see $best), at `path`. */
function bestOf(g: Gen, b: Body, branches: string[], ctx: DynContext, x: string, path: Path): void {
  const fns = branches.map((p) => g.fn('e', p, ctx)).join(', ');
  withPath(b, path, () => b.line(`for (const e of ${g.use('$best')}(${x}, p, [${fns}])) E.push(e);`));
}

function oneOfErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, path: Path): void {
  const branches = schemaArray(s, 'oneOf').map((_, i) => childPointer(ptr, 'oneOf', i));
  const n = b.v('n');
  b.line(`let ${n} = 0;`);
  for (const p of branches) b.line(`if (${callCheck(g, p, ctx, x)}) ${n}++;`);
  b.open(`if (${n} > 1)`);
  push(g, b, path, msg.oneOfMany());
  b.mid(`} else if (${n} === 0) {`);
  const plan = planDiscriminator(g.scope, ptr, s);
  const generic = (): void => {
    push(g, b, path, msg.oneOfNone());
    bestOf(g, b, branches, ctx, x, path);
  };
  if (plan && plan.designates.size > 0) {
    // The discriminator names the intended branch: report that branch's errors, or a bad/missing tag.
    const pn = jsString(plan.propertyName);
    const allowed = [...plan.designates.keys()];
    b.open(`if (typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x}))`);
    b.open(`if (${absentExpr(g, x, plan.propertyName)})`);
    push(g, b, [...path, pn], msg.required());
    b.mid(`} else switch (${x}[${pn}]) {`);
    for (const [value, i] of plan.designates) {
      b.line(`case ${jsString(value)}:`);
      callErrors(g, b, branches[i]!, ctx, x, path);
      b.line('break;');
    }
    b.line('default:');
    if (plan.open.length === 0) push(g, b, [...path, pn], msg.enum(allowed));
    else generic();
    b.close();
    b.mid('} else {');
    generic();
    b.close();
  } else generic();
  b.close();
}

/** unevaluatedProperties/Items that depend on in-place annotations: gather them, then check the rest. */
function unevaluatedErrors(g: Gen, b: Body, s: SchemaObject, ptr: string, ctx: DynContext, x: string, path: Path, types: string[] | undefined): void {
  const inPlace = hasInPlace(s);
  const dynUP = hasOwn(s, 'unevaluatedProperties') && inPlace && !hasOwn(s, 'additionalProperties');
  const dynUI = hasOwn(s, 'unevaluatedItems') && (inPlace || hasOwn(s, 'contains')) && !hasOwn(s, 'items');
  if (!dynUP && !dynUI) return;
  const ev = b.v('ev');
  b.line(`const ${ev} = new Set();`);
  const merge = (p: string): void => {
    if (g.scope.get(p) === true) return;
    const t = b.v('t');
    b.line(`{ const ${t} = new Set(); if (${callCheck(g, p, ctx, x, t)}) ${g.use('$merge')}(${ev}, ${t}); }`);
  };
  // Annotations of adjacent keywords.
  if (dynUP) {
    guarded(b, groupGuard(types, 'object', x), () => {
      const props = schemaMap(s, 'properties');
      const patterns = schemaMap(s, 'patternProperties');
      for (const name of props) b.line(`if (${presentExpr(g, x, name)}) ${ev}.add(${jsString(name)});`);
      if (patterns.length) {
        const k = b.v('k');
        const cond = patterns.map((p) => patternTest(g, p, k)).join(' || ');
        b.line(`for (const ${k} in ${x}) if (${g.use('$hasOwn')}.call(${x}, ${k}) && (${cond})) ${ev}.add(${k});`);
      }
      for (const k of schemaMap(s, 'dependentSchemas')) {
        b.open(`if (${presentExpr(g, x, k)})`);
        merge(childPointer(ptr, 'dependentSchemas', k));
        b.close();
      }
    });
  }
  if (dynUI) {
    guarded(b, groupGuard(types, 'array', x), () => {
      const n = schemaArray(s, 'prefixItems').length;
      const i = b.v('i');
      if (n) b.line(`for (let ${i} = 0; ${i} < ${x}.length && ${i} < ${n}; ${i}++) ${ev}.add(${i});`);
      if (hasOwn(s, 'contains')) b.line(`for (let ${i} = 0; ${i} < ${x}.length; ${i}++) if (${callCheck(g, childPointer(ptr, 'contains'), ctx, `${x}[${i}]`)}) ${ev}.add(${i});`);
    });
  }
  for (const kw of ['$ref', '$dynamicRef'] as const) {
    const target = refTarget(g, s, ptr, ctx, kw);
    if (target !== undefined) merge(target);
  }
  for (const kw of ['allOf', 'anyOf', 'oneOf'] as const) schemaArray(s, kw).forEach((_, i) => merge(childPointer(ptr, kw, i)));
  if (hasOwn(s, 'if')) {
    b.open(`if (${callCheck(g, childPointer(ptr, 'if'), ctx, x)})`);
    merge(childPointer(ptr, 'if'));
    if (hasOwn(s, 'then')) merge(childPointer(ptr, 'then'));
    b.mid('} else {');
    if (hasOwn(s, 'else')) merge(childPointer(ptr, 'else'));
    b.close();
  }
  if (dynUP) {
    guarded(b, groupGuard(types, 'object', x), () => {
      const k = b.v('k');
      b.open(`for (const ${k} in ${x})`);
      b.open(`if (${g.use('$hasOwn')}.call(${x}, ${k}) && !${ev}.has(${k}))`);
      inlineChild(g, b, childPointer(ptr, 'unevaluatedProperties'), ctx, `${x}[${k}]`, [...path, k]);
      b.close();
      b.close();
    });
  }
  if (dynUI) {
    guarded(b, groupGuard(types, 'array', x), () => {
      const i = b.v('i');
      b.open(`for (let ${i} = 0; ${i} < ${x}.length; ${i}++)`);
      b.open(`if (!${ev}.has(${i}))`);
      inlineChild(g, b, childPointer(ptr, 'unevaluatedItems'), ctx, `${x}[${i}]`, [...path, i]);
      b.close();
      b.close();
    });
  }
}
