// Walking generated values without recursion: every drill that goes over a value a generator or a mutation
// made (bodies, request specs) goes through these, so neither depth nor a cycle (a mutation that put an object
// inside itself, seed 1020241059) can overflow the stack or loop for ever. Each walk keeps its own stack and
// visits every object once.

/** A JSON-like value as the drills build it (objects may be shared, or even cyclic, by mistake). */
export type Value = unknown;

/**
 * Calls `visit` once for every object and array reachable from `root` (root first, then depth-first in
 * document order), with the object itself; `visit` may change the object's own properties in place. A value
 * met again (shared or cyclic) is not visited again. Returns how many objects were visited.
 */
export function visitObjects(root: Value, visit: (node: Record<string, unknown> | unknown[]) => void): number {
  if (root === null || typeof root !== 'object') return 0;
  const seen = new Set<object>();
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    visit(node as Record<string, unknown> | unknown[]);
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== null && typeof child === 'object' && !seen.has(child)) stack.push(child);
    }
  }
  return seen.size;
}

/**
 * A copy of `root` with every string replaced by `f(string)` (keys stay as they are; keys such as
 * `__proto__` are defined as own properties). Shared objects stay shared in the copy and a cycle becomes the
 * same cycle, so the copy has the shape of the original.
 */
export function mapStrings<T>(root: T, f: (s: string) => string): T {
  const leaf = (v: unknown): unknown => (typeof v === 'string' ? f(v) : v);
  if (root === null || typeof root !== 'object') return leaf(root) as T;
  const copies = new Map<object, Record<string, unknown> | unknown[]>();
  const copyOf = (node: object): Record<string, unknown> | unknown[] => {
    let copy = copies.get(node);
    if (!copy) {
      copy = Array.isArray(node) ? [] : {};
      copies.set(node, copy);
      stack.push(node);
    }
    return copy;
  };
  const stack: object[] = [];
  const top = copyOf(root as object);
  while (stack.length > 0) {
    const node = stack.pop()!;
    const copy = copies.get(node)!;
    const entries: [string, unknown][] = Array.isArray(node) ? node.map((v, i) => [String(i), v]) : Object.entries(node);
    for (const [k, v] of entries) {
      const mapped = v !== null && typeof v === 'object' ? copyOf(v) : leaf(v);
      if (Array.isArray(copy)) copy[Number(k)] = mapped;
      else Object.defineProperty(copy, k, { value: mapped, enumerable: true, writable: true, configurable: true });
    }
  }
  return top as T;
}
