// English error descriptions. They are built at compile time and reach the generated module only as
// jsString literals (they may contain schema values: enum members, patterns, limits).

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function list(items: string[], conj: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conj} ${items[items.length - 1]}`;
}

/** A schema value as it reads in a sentence: strings bare, everything else as JSON. */
export function show(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export const msg = {
  type: (types: string[]) => `must be ${list(types.map((t) => ARTICLE[t] ?? t), 'or')}`,
  enum: (values: unknown[]) => (values.length === 1 ? `must be ${show(values[0])}` : `must be one of: ${values.map(show).join(', ')}`),
  const: (v: unknown) => `must be equal to ${JSON.stringify(v)}`,
  minLength: (n: number) => `must be at least ${plural(n, 'character')}`,
  maxLength: (n: number) => `must be at most ${plural(n, 'character')}`,
  pattern: (p: string) => `must match pattern ${p}`,
  format: (f: string) => `must be a valid ${f}`,
  minimum: (n: number) => `must be greater than or equal to ${n}`,
  maximum: (n: number) => `must be less than or equal to ${n}`,
  exclusiveMinimum: (n: number) => `must be greater than ${n}`,
  exclusiveMaximum: (n: number) => `must be less than ${n}`,
  multipleOf: (n: number) => `must be a multiple of ${n}`,
  minItems: (n: number) => `must contain at least ${plural(n, 'item')}`,
  maxItems: (n: number) => `must contain at most ${plural(n, 'item')}`,
  uniqueItems: () => 'must not contain duplicate items',
  minContains: (n: number) => `must contain at least ${plural(n, 'item')} matching the required item schema`,
  maxContains: (n: number) => `must contain at most ${plural(n, 'item')} matching the required item schema`,
  minProperties: (n: number) => `must have at least ${plural(n, 'property')}`.replace('propertys', 'properties'),
  maxProperties: (n: number) => `must have at most ${plural(n, 'property')}`.replace('propertys', 'properties'),
  required: () => 'is required',
  dependentRequired: (k: string) => `is required when ${JSON.stringify(k)} is present`,
  notAllowed: () => 'is not allowed',
  propertyName: () => 'is not an allowed property name: ',
  anyOf: () => 'must match at least one of the allowed schemas',
  oneOfNone: () => 'must match exactly one of the allowed schemas, but matches none',
  oneOfMany: () => 'must match exactly one of the allowed schemas, but matches more than one',
  not: () => 'must not match the disallowed schema',
};
