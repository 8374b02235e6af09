// Reading properties named by the spec as own properties only, so names like `constructor` or `__proto__` never
// resolve to `Object.prototype` members.

export function ownValue(target: unknown, key: string): unknown {
  if (typeof target !== 'object' || target === null) return undefined;
  return Object.prototype.hasOwnProperty.call(target, key) ? (target as Record<string, unknown>)[key] : undefined;
}

export function ownEntries(target: unknown): [string, unknown][] {
  if (typeof target !== 'object' || target === null) return [];
  return Object.keys(target).map((key) => [key, (target as Record<string, unknown>)[key]]);
}
