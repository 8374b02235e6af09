// Types shared by the value generator, its interpreter and the boundary prober.
import type { JsonValue, SchemaNode } from '../../model/ir.js';

export type Defs = Record<string, SchemaNode>;

export interface Variant {
  label: string;
  value: unknown;
  /** Readable path of the property the variant is about (`color`, `conditions[0].metric_id`); '' for the whole body. */
  path: string;
}

export interface ValueOptions {
  /** Seed of the PRNG used where a choice is needed (characters of pattern strings, branches of a regex). Default 1. */
  seed?: number;
  /** Also fill optional properties (and give arrays and maps one entry), except where that would recurse. */
  maximal?: boolean;
  /**
   * Asks for a value other than the canonical one (0, the default, tries the schema's examples first): each
   * variant varies formats, patterns, plain strings and numbers, still valid for the schema.
   */
  variant?: number;
}

export type Obj = { [key: string]: JsonValue };
export type Seg = string | number;

export const NONE: unique symbol = Symbol('none');
export type Out = JsonValue | typeof NONE;
