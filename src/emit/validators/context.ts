// Generator state shared by the check and error emitters: function names per (mode, location, dynamic
// context), module-level constants (regexes, constant values, sets) and the work queue of functions still
// to emit. Names are handed out in request order, so the same schema always yields byte-identical output.
import { inlineableTarget } from './schema-facts.js';
import { childPointer, isObject, Scope, type DynContext } from './scope.js';

/**
 * Keywords with no effect on validation here (annotations, identifiers, definitions): a schema made of `$ref`
 * and these validates exactly as its target does. `$id`/`$anchor`/`$dynamicAnchor` only matter for resolution,
 * which is done by then; the dynamic scope is carried over with Scope.enter.
 */
const INERT = new Set([
  'title', 'description', 'default', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly', '$comment',
  '$schema', '$id', '$anchor', '$dynamicAnchor', '$defs', 'definitions', '$vocabulary', 'contentMediaType',
  'contentEncoding', 'contentSchema', 'externalDocs', 'xml',
]);

/** c: fast boolean check; a: boolean check that also records evaluated properties/items; e: error collector. */
export type Mode = 'c' | 'a' | 'e';

export interface GenOptions {
  assertFormats: boolean;
}

interface Pending {
  name: string;
  mode: Mode;
  ptr: string;
  ctx: DynContext;
}

export type FunctionEmitter = (g: Gen, name: string, ptr: string, ctx: DynContext, mode: Mode) => string;

export class Gen {
  readonly helpers = new Set<string>();
  readonly formats = new Set<string>();
  private readonly consts: string[] = [];
  private readonly constNames = new Map<string, string>();
  private readonly fnNames = new Map<string, string>();
  private readonly byContent = new Map<string, string>();
  private readonly contentKeys = new Map<string, string | undefined>();
  private readonly resolving = new Set<string>();
  private readonly inlineable = new Map<string, boolean>();
  /** Costs of `$ref` targets already computed by inlineCost, shared by every inlineRef decision. */
  private readonly costs: CostMemo = new Map();
  private readonly inlining = new Set<string>();
  private readonly queue: Pending[] = [];
  private readonly functions: string[] = [];
  private readonly counters = { c: 0, a: 0, e: 0 };

  constructor(
    readonly scope: Scope,
    readonly options: GenOptions,
  ) {}

  /** Mark a runtime helper as used and return its name. */
  use(helper: string): string {
    this.helpers.add(helper);
    return helper;
  }

  /**
   * Name of the function for (mode, location, context); queued for emission on first request. Two requests
   * share one function when the code would be the same: a location that is only a `$ref` (plus annotations)
   * is its target's function, and locations with equal schemas (same JSON text, same base URI, same dynamic
   * context) share the first one's.
   */
  fn(mode: Mode, ptr: string, ctx: DynContext): string {
    const key = `${mode}\u0001${Scope.contextKey(ctx)}\u0001${ptr}`;
    const known = this.fnNames.get(key);
    if (known !== undefined) return known;
    if (!this.resolving.has(key)) {
      const target = this.refAlias(ptr);
      if (target !== undefined) {
        // A cycle of bare refs comes back here; it then gets a function of its own (which recurses, as the schema does).
        this.resolving.add(key);
        const name = this.fn(mode, target, this.scope.enter(ctx, ptr));
        this.resolving.delete(key);
        this.fnNames.set(key, name);
        return name;
      }
    }
    const content = this.contentKey(ptr);
    const ckey = content === undefined ? undefined : `${mode}\u0001${Scope.contextKey(ctx)}\u0001${content}`;
    let name = ckey === undefined ? undefined : this.byContent.get(ckey);
    if (name === undefined) {
      name = `$${mode}${this.counters[mode]++}`;
      if (ckey !== undefined) this.byContent.set(ckey, name);
      this.queue.push({ name, mode, ptr, ctx });
    }
    this.fnNames.set(key, name);
    return name;
  }

  /** The target of a location whose only validating keyword is `$ref` (anything else is an annotation). */
  private refAlias(ptr: string): string | undefined {
    const node = this.scope.get(ptr);
    if (!isObject(node) || typeof node.$ref !== 'string') return undefined;
    for (const k of Object.keys(node)) if (k !== '$ref' && !INERT.has(k) && !k.startsWith('x-')) return undefined;
    return this.scope.resolve(node.$ref, ptr);
  }

  /**
   * Text that determines the code of a location: its JSON text and base URI (references inside resolve
   * against it). Undefined (no sharing) for boolean schemas and for schemas with a `discriminator`, whose
   * mapping may name locations inside the schema itself.
   */
  private contentKey(ptr: string): string | undefined {
    let key = this.contentKeys.get(ptr);
    if (key === undefined && !this.contentKeys.has(ptr)) {
      const node = this.scope.get(ptr);
      const text = isObject(node) ? JSON.stringify(node) : undefined;
      key = text === undefined || text.includes('"discriminator"') ? undefined : `${this.scope.baseOf(ptr)}\u0001${text}`;
      this.contentKeys.set(ptr, key);
    }
    return key;
  }

  /**
   * Whether a `$ref` to `target` is inlined into fast checks (instead of calling the target's function): for
   * leaves (a few lines, no recursion possible) and for schemas whose inlined code stays small. One function
   * per object type keeps the hot path independent of the engine's own inlining heuristics (which change
   * with call counts and budgets); the cap bounds the code duplicated for schemas referenced from many places.
   */
  inlineRef(target: string): boolean {
    let yes = this.inlineable.get(target);
    if (yes === undefined) {
      yes = inlineableTarget(this.scope.get(target)) || inlineCost(this.scope, target, new Set([target]), this.costs, [], { left: INLINE_WORK }) <= INLINE_BUDGET;
      this.inlineable.set(target, yes);
    }
    return yes;
  }

  /** Whether `target` is being inlined right now (inlining it again would not end). */
  isInlining(target: string): boolean {
    return this.inlining.has(target);
  }

  /** Run `emit` with `target` marked as being inlined; false (nothing run) when it already is (recursion). */
  withInlined(target: string, emit: () => void): boolean {
    if (this.inlining.has(target)) return false;
    this.inlining.add(target);
    try {
      emit();
    } finally {
      this.inlining.delete(target);
    }
    return true;
  }

  /** A module-level constant for an initialiser expression (built by the caller from encoded values only). */
  constant(prefix: string, init: string): string {
    let name = this.constNames.get(init);
    if (name === undefined) {
      name = `$${prefix}${this.consts.length}`;
      this.constNames.set(init, name);
      this.consts.push(`const ${name} = ${init};`);
    }
    return name;
  }

  /** Emit every queued function (emitting may queue more, e.g. recursive refs). */
  drain(emit: FunctionEmitter): void {
    for (let i = 0; i < this.queue.length; i++) {
      const p = this.queue[i]!;
      this.functions.push(emit(this, p.name, p.ptr, p.ctx, p.mode));
    }
  }

  constantSource(): string {
    return this.consts.join('\n');
  }

  functionSource(): string {
    return this.functions.join('\n\n');
  }
}

/** Lines of one generated function body, with indentation and function-local unique variable names. */
export class Body {
  readonly lines: string[] = [];
  /** What failing fast-check code does: return from the check function, or leave an inlined guard block. */
  fail = 'return false;';
  private depth = 1;
  private n = 0;

  line(s: string): void {
    this.lines.push(`${'  '.repeat(this.depth)}${s}`);
  }

  open(head: string): void {
    this.line(`${head} {`);
    this.depth++;
  }

  close(tail = '}'): void {
    this.depth--;
    this.line(tail);
  }

  /** Close a block and open the next one on the same line, e.g. `} else {`. */
  mid(s: string): void {
    this.depth--;
    this.line(s);
    this.depth++;
  }

  /**
   * Close an `} else {` block opened with mid(): when nothing was written since `mark` (the line count right
   * after the mid() call), drop the empty else and close the if instead.
   */
  closeElse(mark: number): void {
    if (this.lines.length === mark) {
      this.lines.pop();
      this.depth--;
      this.line('}');
    } else this.close();
  }

  /**
   * Close a block opened with open(); when nothing was written since `mark` (the line count right after the
   * open() call), drop the empty block instead.
   */
  closeOrDrop(mark: number): void {
    if (this.lines.length === mark) {
      this.lines.pop();
      this.depth--;
    } else this.close();
  }

  /** A fresh local variable name. */
  v(prefix: string): string {
    return `${prefix}${this.n++}`;
  }

  text(): string {
    return this.lines.join('\n');
  }
}

/** Estimated lines of inlined fast-check code above which a referenced schema keeps its own function. */
const INLINE_BUDGET = 80;

/**
 * Schema nodes one inlining decision may visit. The cost memo is exact but depends on which targets are on the stack,
 * so in a densely cyclic document (presalytics ooxml: hundreds of schemas referring to each other) the number of
 * stack states explodes; past this much work the target is simply not inlined (a call, always correct).
 */
const INLINE_WORK = 2_000;
/** Remembered costs per target (one per stack state met); more states than this are recomputed, within the work limit. */
const MEMO_STATES = 16;

const CHILD_SINGLE = ['items', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties', 'propertyNames', 'then', 'else', 'if', 'not', 'contains'];
const CHILD_MAPS = ['properties', 'patternProperties', 'dependentSchemas'];

/**
 * Rough size (lines) of the fast-check code for the schema at `ptr` with its `$ref`s inlined as inlineRef
 * would; Infinity past the budget, or when a reference leads back into `stack` (recursion is never inlined).
 */
function inlineCost(scope: Scope, ptr: string, stack: Set<string>, memo: CostMemo, deps: Set<string>[], work: { left: number }): number {
  if (--work.left < 0) return Infinity;
  const node = scope.get(ptr);
  if (!isObject(node)) return 1;
  let c = 1;
  for (const k of Object.keys(node)) {
    const v = node[k];
    if (CHILD_SINGLE.includes(k)) c += 1 + inlineCost(scope, childPointer(ptr, k), stack, memo, deps, work);
    else if (CHILD_MAPS.includes(k) && isObject(v)) {
      for (const name of Object.keys(v)) c += 2 + inlineCost(scope, childPointer(ptr, k, name), stack, memo, deps, work);
    } else if ((k === 'allOf' || k === 'prefixItems') && Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) c += 1 + inlineCost(scope, childPointer(ptr, k, i), stack, memo, deps, work);
    } else if (k === '$ref' && typeof v === 'string') {
      const t = scope.resolve(v, ptr);
      if (t === undefined) return Infinity;
      for (const d of deps) d.add(t); // every cost being computed depends on whether t is on the stack
      if (stack.has(t)) return Infinity;
      stack.add(t);
      const sub = refCost(scope, t, stack, memo, deps, work);
      stack.delete(t);
      // A target that is not inlined costs one call line.
      c += inlineableTarget(scope.get(t)) || sub <= INLINE_BUDGET ? sub : 1;
    } else if (k === 'enum' && Array.isArray(v)) c += 1 + (v.length >> 3);
    else if (!INERT.has(k) && !k.startsWith('x-')) c += 1;
    if (c > INLINE_BUDGET) return Infinity;
  }
  return c;
}

/** A computed cost of a `$ref` target and the stack membership of every target its computation looked up. */
interface CostEntry {
  value: number;
  deps: string[];
  onStack: boolean[];
}
type CostMemo = Map<string, CostEntry[]>;

/**
 * inlineCost of a `$ref` target, remembered: the computation reads the (unchanging) document and asks only whether
 * given targets are on the stack, so an earlier result is exact whenever each target it asked about is on the stack
 * now exactly when it was then. Densely linked documents reach the same targets from thousands of places.
 */
function refCost(scope: Scope, target: string, stack: Set<string>, memo: CostMemo, deps: Set<string>[], work: { left: number }): number {
  const entries = memo.get(target) ?? [];
  for (const e of entries) {
    if (e.deps.every((d, i) => stack.has(d) === e.onStack[i])) {
      for (const d of deps) for (const x of e.deps) d.add(x);
      return e.value;
    }
  }
  const mine = new Set<string>();
  deps.push(mine);
  const before = work.left;
  const value = inlineCost(scope, target, stack, memo, deps, work);
  deps.pop();
  // A result cut short by the work limit says nothing about the target: not remembered.
  if (work.left < 0 && before >= 0) return value;
  for (const d of deps) for (const x of mine) d.add(x);
  const list = [...mine];
  if (entries.length < MEMO_STATES) entries.push({ value, deps: list, onStack: list.map((d) => stack.has(d)) });
  memo.set(target, entries);
  return value;
}
