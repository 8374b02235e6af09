// Fresh values for client-supplied identifiers (issue 27). A spec may let the client choose a record's id (museum's
// `eventId` in a create body). The value generator answers a schema's example first, so every create would send the
// same id, and a deployment that refuses or replaces a taken id fails the checks that read the record back. Each
// create gets instead a value no earlier one had: a variant of the generator (`validValue`'s `variant`), which varies
// formats (a uuid stays a uuid), patterns, strings and numbers while the generator still checks the value against the
// schema. Variants are drawn from the seeded generator (src/data/prng.ts); the seed comes from the clock, so two runs
// against one deployment do not send the same ids either.
import { mulberry32 } from '../data/prng.js';
import { validValue, type Defs } from './values/index.js';
import type { SchemaNode } from '../model/ir.js';

/** Attempts per value: a tight schema (a short enum, a small integer range) may not have many distinct values. */
const ATTEMPTS = 24;

export class FreshValues {
  private readonly random: () => number;
  private readonly used = new Set<string>();

  constructor(seed: number = Date.now() >>> 0) {
    this.random = mulberry32(seed);
  }

  /** A value valid for `schema` that this instance has not handed out before; undefined when none was found. */
  next(schema: SchemaNode, defs: Defs): unknown {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      // Large variants first (unlikely to meet another run's); then small ones, for schemas with narrow bounds.
      const span = attempt < ATTEMPTS / 2 ? 2 ** 31 : 2 ** (attempt - ATTEMPTS / 2 + 3);
      const variant = 1 + Math.floor(this.random() * span);
      const value = validValue(schema, defs, { seed: variant, variant });
      if (value === undefined) continue;
      const key = JSON.stringify(value);
      if (this.used.has(key)) continue;
      this.used.add(key);
      return value;
    }
    return undefined;
  }
}

/** The process's values: shared by every World, so two suites run at once against one target do not meet either. */
export const processFreshValues: FreshValues = new FreshValues();
