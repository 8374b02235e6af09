// Bounds on the work a spec can cause. A spec may come from the network (GET /openapi), so every
// dimension that could make loading slow or large has a limit with a clear error.

export interface LoadLimits {
  /** Largest document accepted, in bytes (the largest public spec we test with is about 4 MB). */
  maxDocumentBytes: number;
  /** YAML aliases a document may use (alias bombs expand exponentially). */
  maxAliases: number;
  /** Deepest nesting of objects/arrays in a document. */
  maxDepth: number;
  /** Files a catalog may pull in through relative $refs. */
  maxFiles: number;
  /** Time one HTTP fetch may take, in ms (headers and body, each attempt). */
  fetchTimeoutMs: number;
  /** Time a whole load from a catalog may take, in ms: every fetch, retry and wait together. */
  loadTimeoutMs: number;
  /** Attempts for a fetch answered 503/502/504/429 or failing at the network level. */
  fetchAttempts: number;
  /** First backoff delay between attempts, in ms (doubled each time). */
  fetchBackoffMs: number;
}

export const DEFAULT_LIMITS: LoadLimits = {
  maxDocumentBytes: 32 * 1024 * 1024,
  maxAliases: 1000,
  maxDepth: 200,
  maxFiles: 2000,
  fetchTimeoutMs: 20_000,
  loadTimeoutMs: 120_000,
  fetchAttempts: 4,
  fetchBackoffMs: 250,
};
