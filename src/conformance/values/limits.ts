// Budgets and bounds of the value generator: what keeps a pathological schema from running away.

/** Steps (schema visits) one top-level call may take before it gives up. */
export const BUDGET = 60_000;
/** How deep generation may nest (objects and arrays), and how often one `$ref` may be open on the stack. */
export const MAX_DEPTH = 40;
export const MAX_REF_REPEAT = 4;
/** Past this depth, or inside a recursion, optional properties are no longer filled in `maximal` mode. */
export const FILL_DEPTH = 8;
export const FILL_BUDGET = 400;
/** Steps one optional value may take: an optional property that is hard to satisfy is left out, not searched for. */
export const OPTIONAL_BUDGET = 4_000;
/** Longest string generated (minLength beyond this is treated as unsatisfiable). */
export const MAX_STRING = 1_000_000;
/** Largest bound boundaryVariants builds a value at (maxLength, maxItems). */
export const MAX_PROBE_LENGTH = 100_000;
export const MAX_PROBE_ITEMS = 1_000;
