// Local `$ref`s whose pointer passes through another `$ref` (`#/paths/~1a/get/.../allOf/0/properties/data`
// where `allOf/0` is itself `{ $ref: "#/components/schemas/Data" }`) are rewritten to the pointer of the place
// they reach (`#/components/schemas/Data/properties/data`). Common resolvers (json-schema-ref-parser,
// openapi-typescript's) follow the intermediate reference; after this pass every later stage can read a ref as a
// plain path into the document. A ref that leads nowhere even so is left as it is: the model names it.
type JsonObject = Record<string, unknown>;

const MAX_HOPS = 64;

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function keysOf(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref
      .slice(2)
      .split('/')
      .map((k) => decodeURIComponent(k).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return undefined;
  }
}

const pointerOfKeys = (keys: readonly string[]): string => (keys.length === 0 ? '#' : `#/${keys.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`);

/** Rewrites, in place, the local refs of `doc` that pass through another ref; returns how many were rewritten. */
export function canonicalizeRefs(doc: JsonObject): number {
  const memo = new Map<string, string[] | null>();

  // The keys of the place `ref` reaches, following refs met on the way (not the one at the end).
  const resolve = (ref: string, depth: number): string[] | null => {
    const known = memo.get(ref);
    if (known !== undefined) return known;
    if (depth > MAX_HOPS) return null;
    const keys = keysOf(ref);
    if (keys === undefined) return null;
    let node: unknown = doc;
    let at: string[] = [];
    for (const key of keys) {
      // A step the node does not have, through a ref: continue from the ref's target.
      for (let hops = 0; isObject(node) && !hasOwn(node, key) && typeof node.$ref === 'string'; hops++) {
        if (hops > MAX_HOPS) return null;
        const target = resolve(node.$ref, depth + 1);
        if (target === null) return null;
        at = target;
        node = valueAt(target);
      }
      if (Array.isArray(node) ? !/^(0|[1-9][0-9]*)$/.test(key) || Number(key) >= node.length : !isObject(node) || !hasOwn(node, key)) return null;
      node = (node as JsonObject)[key];
      at = [...at, key];
    }
    memo.set(ref, at);
    return at;
  };

  const valueAt = (keys: string[]): unknown => {
    let node: unknown = doc;
    for (const key of keys) node = isObject(node) || Array.isArray(node) ? (node as JsonObject)[key] : undefined;
    return node;
  };

  let rewritten = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      const target = resolve(node.$ref, 0);
      if (target !== null) {
        const canonical = pointerOfKeys(target);
        if (canonical !== node.$ref && keysOf(canonical)?.join('/') !== keysOf(node.$ref)?.join('/')) {
          node.$ref = canonical;
          rewritten++;
        }
      }
    }
    for (const key of Object.keys(node)) {
      // Examples and extension values are data, not schema.
      if (key === '$ref' || key === 'example' || key === 'examples' || key === 'enum' || key === 'const' || key === 'default' || key.startsWith('x-')) continue;
      visit(node[key]);
    }
  };
  visit(doc);
  return rewritten;
}
