// Schema locations, base URIs, `$id`/`$anchor`/`$dynamicAnchor` registration and `$ref` resolution.
// A location is the escaped JSON pointer of a subschema from the document root ('' = root); it is the
// unit the code generator specialises functions for, so two refs to the same place share one function.

export type SchemaNode = boolean | { [keyword: string]: unknown };

/** Base URI used when the root has no `$id`: an http URL so relative `$id`/`$ref` values can resolve against it. */
const DEFAULT_BASE = 'https://schema.invalid/root.json';

/** Keywords whose value is one subschema. */
export const SINGLE_SCHEMA = [
  'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'items', 'contains', 'propertyNames',
  'not', 'if', 'then', 'else', 'contentSchema',
] as const;
/** Keywords whose value is an array of subschemas. */
export const ARRAY_SCHEMA = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
export const MAP_SCHEMA = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasOwn(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

export function escapeToken(t: string): string {
  // Most tokens (keywords, property names, indices) need no escape: the compiler asks for hundreds of thousands.
  if (!t.includes('~') && !t.includes('/')) return t;
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(t: string): string {
  if (!t.includes('~')) return t;
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function childPointer(ptr: string, ...tokens: (string | number)[]): string {
  let out = ptr;
  for (const t of tokens) out += `/${typeof t === 'number' ? t : escapeToken(t)}`;
  return out;
}

function stripFragment(uri: string): string {
  const i = uri.indexOf('#');
  return i < 0 ? uri : uri.slice(0, i);
}

function resolveUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

/** Dynamic scope, reduced to what matters: for each dynamic anchor name, the outermost resource binding it. */
export type DynContext = ReadonlyMap<string, string>;
export const EMPTY_CONTEXT: DynContext = new Map();

/** A memoised pointer that leads nowhere. */
const NOWHERE = Symbol('nowhere');

export class Scope {
  /** Absolute URI (no fragment) of each schema resource, and `uri#anchor` for anchors, to a location. */
  private readonly uris = new Map<string, string>();
  /** Base URI in effect at each scanned location (after applying the location's own `$id`). */
  private readonly bases = new Map<string, string>();
  /** Resource URI -> dynamic anchor name -> location. */
  private readonly dynamicAnchors = new Map<string, Map<string, string>>();
  /** Names used in `$dynamicRef` fragments: only these need tracking in the dynamic context. */
  readonly dynamicNames = new Set<string>();

  /** Every location asked for (scanned ones from the start), to its schema or NOWHERE. */
  private readonly nodes = new Map<string, SchemaNode | typeof NOWHERE>();

  /** `aliases`: more URIs (no fragment) of scanned locations, such as the retrieval URI of an embedded document. */
  constructor(readonly root: SchemaNode, aliases: ReadonlyMap<string, string> = new Map()) {
    this.scan(root, '', DEFAULT_BASE);
    for (const [uri, ptr] of aliases) if (!this.uris.has(uri)) this.uris.set(uri, ptr);
    // A boolean root (or one whose $id moved the base) is still reachable as '#'.
    if (!this.uris.has(DEFAULT_BASE)) this.uris.set(DEFAULT_BASE, '');
  }

  private scan(node: unknown, ptr: string, parentBase: string): void {
    if (typeof node === 'boolean') this.nodes.set(ptr, node);
    if (!isObject(node)) return;
    this.nodes.set(ptr, node);
    let base = parentBase;
    if (typeof node.$id === 'string') {
      base = stripFragment(resolveUri(node.$id, parentBase) ?? node.$id);
      if (!this.uris.has(base)) this.uris.set(base, ptr);
    }
    if (ptr === '' && !this.uris.has(base)) this.uris.set(base, '');
    this.bases.set(ptr, base);
    if (typeof node.$anchor === 'string' && !this.uris.has(`${base}#${node.$anchor}`)) this.uris.set(`${base}#${node.$anchor}`, ptr);
    if (typeof node.$dynamicAnchor === 'string') {
      const name = node.$dynamicAnchor;
      if (!this.uris.has(`${base}#${name}`)) this.uris.set(`${base}#${name}`, ptr);
      let m = this.dynamicAnchors.get(base);
      if (!m) this.dynamicAnchors.set(base, (m = new Map()));
      if (!m.has(name)) m.set(name, ptr);
    }
    if (typeof node.$dynamicRef === 'string') {
      const frag = node.$dynamicRef.split('#')[1];
      if (frag !== undefined && frag !== '' && !frag.startsWith('/')) this.dynamicNames.add(frag);
    }
    for (const k of SINGLE_SCHEMA) if (hasOwn(node, k)) this.scan(node[k], childPointer(ptr, k), base);
    for (const k of ARRAY_SCHEMA) {
      const v = node[k];
      if (hasOwn(node, k) && Array.isArray(v)) v.forEach((s, i) => this.scan(s, childPointer(ptr, k, i), base));
    }
    for (const k of MAP_SCHEMA) {
      const v = node[k];
      if (hasOwn(node, k) && isObject(v)) for (const name of Object.keys(v)) this.scan(v[name], childPointer(ptr, k, name), base);
    }
  }

  /** The schema at a location (undefined when the pointer leads nowhere). Memoised: the document is not changed
   * while validators are compiled, and compiling a large document asks for the same locations many times. */
  get(ptr: string): SchemaNode | undefined {
    const known = this.nodes.get(ptr);
    if (known !== undefined) return known === NOWHERE ? undefined : known;
    const node = this.walk(ptr);
    this.nodes.set(ptr, node ?? NOWHERE);
    return node;
  }

  private walk(ptr: string): SchemaNode | undefined {
    let cur: unknown = this.root;
    if (ptr === '') return cur as SchemaNode;
    for (const raw of ptr.slice(1).split('/')) {
      const t = unescapeToken(raw);
      if (Array.isArray(cur) && /^(0|[1-9][0-9]*)$/.test(t)) cur = cur[Number(t)];
      else if (isObject(cur) && hasOwn(cur, t)) cur = cur[t];
      else return undefined;
    }
    return typeof cur === 'boolean' || isObject(cur) ? (cur as SchemaNode) : undefined;
  }

  /** Base URI in effect at `ptr`; locations reached only through a pointer inherit from their nearest scanned ancestor. */
  baseOf(ptr: string): string {
    for (let p = ptr; ; p = p.slice(0, p.lastIndexOf('/'))) {
      const b = this.bases.get(p);
      if (b !== undefined) return b;
      if (p === '') return DEFAULT_BASE;
    }
  }

  /** Resolutions by base URI and reference: the same `$ref` is met at many locations of one resource. */
  private readonly resolved = new Map<string, string | undefined>();

  /** Resolve a `$ref`-style reference found at location `from` to a location, or undefined if it points outside the document. */
  resolve(ref: string, from: string): string | undefined {
    const key = `${this.baseOf(from)}\u0000${ref}`;
    if (this.resolved.has(key)) return this.resolved.get(key);
    const target = this.resolveUncached(ref, from);
    this.resolved.set(key, target);
    return target;
  }

  private resolveUncached(ref: string, from: string): string | undefined {
    const hash = ref.indexOf('#');
    const path = hash < 0 ? ref : ref.slice(0, hash);
    const frag = hash < 0 ? '' : ref.slice(hash + 1);
    const base = this.baseOf(from);
    const abs = path === '' ? base : stripFragment(resolveUri(path, base) ?? path);
    if (frag === '' || frag.startsWith('/')) {
      const res = this.uris.get(abs);
      if (res === undefined) return undefined;
      let tokens: string[];
      try {
        tokens = frag === '' ? [] : decodeURIComponent(frag).slice(1).split('/').map(unescapeToken);
      } catch {
        return undefined;
      }
      const target = childPointer(res, ...tokens);
      return this.get(target) === undefined ? undefined : target;
    }
    return this.uris.get(`${abs}#${frag}`);
  }

  /** The resource (absolute URI) a location belongs to. */
  resourceOf(ptr: string): string {
    return this.baseOf(ptr);
  }

  /** Enter the resource of `ptr`: its dynamic anchors bind names not already bound by an outer resource. */
  enter(ctx: DynContext, ptr: string): DynContext {
    if (this.dynamicNames.size === 0) return ctx;
    const anchors = this.dynamicAnchors.get(this.resourceOf(ptr));
    if (!anchors) return ctx;
    let out: Map<string, string> | undefined;
    for (const [name] of anchors) {
      if (!this.dynamicNames.has(name) || ctx.has(name)) continue;
      out ??= new Map(ctx);
      out.set(name, this.resourceOf(ptr));
    }
    return out ?? ctx;
  }

  /**
   * Resolve `$dynamicRef` at `from` under dynamic context `ctx`: like `$ref`, unless the initially resolved
   * schema carries a `$dynamicAnchor` of the fragment's name, in which case the outermost binding wins.
   */
  resolveDynamic(ref: string, from: string, ctx: DynContext): string | undefined {
    const target = this.resolve(ref, from);
    if (target === undefined) return undefined;
    const frag = ref.includes('#') ? ref.slice(ref.indexOf('#') + 1) : '';
    if (frag === '' || frag.startsWith('/')) return target;
    const node = this.get(target);
    if (!isObject(node) || node.$dynamicAnchor !== frag) return target;
    const resource = ctx.get(frag);
    const bound = resource === undefined ? undefined : this.dynamicAnchors.get(resource)?.get(frag);
    return bound ?? target;
  }

  /** A stable text key for a context (names sorted), used to name specialised functions. */
  static contextKey(ctx: DynContext): string {
    return [...ctx.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, r]) => `${n}=${r}`).join('\u0000');
  }
}
