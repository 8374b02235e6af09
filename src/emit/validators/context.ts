// Generator state shared by the check and error emitters: function names per (mode, location, dynamic
// context), module-level constants (regexes, constant values, sets) and the work queue of functions still
// to emit. Names are handed out in request order, so the same schema always yields byte-identical output.
import { Scope, type DynContext } from './scope.js';

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

  /** Name of the function for (mode, location, context); queued for emission on first request. */
  fn(mode: Mode, ptr: string, ctx: DynContext): string {
    const key = `${mode}\u0001${Scope.contextKey(ctx)}\u0001${ptr}`;
    let name = this.fnNames.get(key);
    if (name === undefined) {
      name = `$${mode}${this.counters[mode]++}`;
      this.fnNames.set(key, name);
      this.queue.push({ name, mode, ptr, ctx });
    }
    return name;
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

  /** A fresh local variable name. */
  v(prefix: string): string {
    return `${prefix}${this.n++}`;
  }

  text(): string {
    return this.lines.join('\n');
  }
}
