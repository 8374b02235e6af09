// @ts-check
// Bounds on the work a spec can cause. A spec may come from the network (GET /openapi), so every
// dimension that could make loading slow or large has a limit with a clear error.
// Plain JavaScript (checked by tsc through JSDoc): the launcher of `npm run generate` (src/cli/launch.js) reads the
// document limit before TypeScript is loaded.

/**
 * @typedef {object} LoadLimits
 * @property {number} maxDocumentBytes Largest document accepted, in bytes (the largest public spec we test with is about 4 MB).
 * @property {number} maxAliases YAML aliases a document may use (alias bombs expand exponentially).
 * @property {number} maxDepth Deepest nesting of objects/arrays in a document.
 * @property {number} maxFiles Files a catalog may pull in through relative $refs.
 * @property {number} fetchTimeoutMs Time one HTTP fetch may take, in ms (headers and body, each attempt).
 * @property {number} loadTimeoutMs Time a whole load from a catalog may take, in ms: every fetch, retry and wait together.
 * @property {number} fetchAttempts Attempts for a fetch answered 503/502/504/429 or failing at the network level.
 * @property {number} fetchBackoffMs First backoff delay between attempts, in ms (doubled each time).
 */

/** @type {Readonly<LoadLimits>} */
export const DEFAULT_LIMITS = Object.freeze({
  maxDocumentBytes: 32 * 1024 * 1024,
  maxAliases: 1000,
  maxDepth: 200,
  maxFiles: 2000,
  fetchTimeoutMs: 20_000,
  loadTimeoutMs: 120_000,
  fetchAttempts: 4,
  fetchBackoffMs: 250,
});
