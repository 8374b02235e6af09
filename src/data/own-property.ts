// Writing data keys into plain objects, whatever the key. Keys of JSON data and of specs are data, not code:
// assigning `obj['__proto__'] = v` would change the object's prototype instead of adding a key, so that one key
// is defined as an own property; every other key is assigned (faster, and the same result on a plain object,
// since `__proto__` is the only accessor on Object.prototype).

/** Sets `target[key] = value` as an own, enumerable data property, `__proto__` included. */
export function setOwn<T>(target: Record<string, T>, key: string, value: NoInfer<T>): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
