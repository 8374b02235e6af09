// A bounded map of parsed rows: the SQLite store's caches and the PostgreSQL store's shared cache (pg-shared-cache.ts).

/** A map of parsed rows that forgets everything when full (hits only: unknown keys are never cached). */
export class BoundedCache<T extends object> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly limit: number) {}
  get(id: string): T | undefined {
    return this.entries.get(id);
  }
  set(id: string, value: T): T {
    if (this.entries.size >= this.limit) this.entries.clear();
    // Frozen: callers share the cached object and must not change it behind the store's back.
    this.entries.set(id, Object.freeze(value));
    return value;
  }
  delete(id: string): void {
    this.entries.delete(id);
  }
  clear(): void {
    this.entries.clear();
  }
}
