// The filter query parameter of lists (x-list-query filter; facts section 3: "AIP-160 style"): comparisons of a
// record's fields joined by AND, OR (which binds tighter than AND, as in AIP-160) and NOT, with parentheses. A comparison is
// `field op value`: op one of = != < <= > >= and `:` (has: an element of a list, a key of an object, or equal);
// the value a "quoted" or 'quoted' string, a number, true, false, null or a bare word. Fields are the record's
// top-level fields. What the subset does not read is 400 on the parameter, never silently ignored.
import { invalid } from '../errors.js';
import type { Json } from '../storage/store.js';

type Value = string | number | boolean | null;
type Op = '=' | '!=' | '<' | '<=' | '>' | '>=' | ':';

export type Filter = (data: Json) => boolean;

interface Token {
  kind: 'open' | 'close' | 'op' | 'word' | 'string' | 'number';
  text: string;
  at: number;
}

const TOKEN = /\s*(?:(\()|(\))|(!=|<=|>=|=|<|>|:)|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w.])|([A-Za-z_][\w.]*))/y;

type Fail = (description: string) => never;

function tokenize(text: string, fail: Fail): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) fail(`cannot read the filter at character ${at + 1}: ${JSON.stringify(text.slice(at, at + 20))}`);
    const [, open, close, op, dq, sq, num, word] = m;
    const start = m.index + m[0].length - m[0].trimStart().length;
    if (open) tokens.push({ kind: 'open', text: open, at: start });
    else if (close) tokens.push({ kind: 'close', text: close, at: start });
    else if (op) tokens.push({ kind: 'op', text: op, at: start });
    else if (dq !== undefined || sq !== undefined) tokens.push({ kind: 'string', text: (dq ?? sq)!.replace(/\\(.)/g, '$1'), at: start });
    else if (num) tokens.push({ kind: 'number', text: num, at: start });
    else tokens.push({ kind: 'word', text: word!, at: start });
  }
  return tokens;
}

function compare(stored: unknown, op: Op, value: Value): boolean {
  if (op === ':') {
    if (Array.isArray(stored)) return stored.some((item) => compare(item, '=', value));
    if (stored !== null && typeof stored === 'object') return typeof value === 'string' && Object.prototype.hasOwnProperty.call(stored, value);
    return compare(stored, '=', value);
  }
  if (op === '!=') return !compare(stored, '=', value);
  const missing = stored === undefined || stored === null;
  if (op === '=') {
    if (value === null || missing) return value === null && missing;
    if (typeof stored === 'number' && typeof value === 'number') return stored === value;
    return typeof stored !== 'object' && String(stored) === String(value);
  }
  if (missing || value === null || typeof stored === 'object') return false;
  const order = typeof stored === 'number' && typeof value === 'number' ? stored - value : String(stored) < String(value) ? -1 : String(stored) > String(value) ? 1 : 0;
  return op === '<' ? order < 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : order >= 0;
}

/**
 * Reads a filter expression into a test of a record's data; `fields` are the names it may compare, `param` the
 * query parameter a refusal names.
 */
export function parseFilter(text: string, fields: readonly string[], what: string, param: string): Filter {
  const fail: Fail = (description) => {
    throw invalid(param, description);
  };
  const tokens = tokenize(text, fail);
  let i = 0;
  const peek = (): Token | undefined => tokens[i];
  const keyword = (word: string): boolean => peek()?.kind === 'word' && peek()!.text === word;
  const where = (): string => (peek() ? `at character ${peek()!.at + 1} (${JSON.stringify(peek()!.text)})` : 'at the end');

  function value(): Value {
    const t = tokens[i++];
    if (!t || t.kind === 'open' || t.kind === 'close' || t.kind === 'op') fail(`a comparison needs a value ${t ? `at character ${t.at + 1}` : 'at the end'}`);
    if (t.kind === 'number') return Number(t.text);
    if (t.kind === 'string') return t.text;
    return t.text === 'true' ? true : t.text === 'false' ? false : t.text === 'null' ? null : t.text;
  }

  function term(): Filter {
    if (keyword('NOT')) {
      i++;
      const inner = term();
      return (d) => !inner(d);
    }
    if (peek()?.kind === 'open') {
      i++;
      const inner = expression();
      if (peek()?.kind !== 'close') fail(`a "(" is not closed: expected ")" ${where()}`);
      i++;
      return inner;
    }
    const field = tokens[i++];
    if (!field || field.kind !== 'word' || ['AND', 'OR', 'NOT'].includes(field.text)) fail(`expected a field name ${field ? `at character ${field.at + 1} (${JSON.stringify(field.text)})` : 'at the end'}`);
    if (!fields.includes(field.text)) fail(`cannot filter ${what} by "${field.text}": not one of its fields`);
    const op = tokens[i++];
    if (!op || op.kind !== 'op') fail(`expected a comparison (= != < <= > >= :) after "${field.text}" ${op ? `at character ${op.at + 1}` : 'at the end'}`);
    const wanted = value();
    return (d) => compare(d[field.text], op.text as Op, wanted);
  }

  function factor(): Filter {
    const terms = [term()];
    while (keyword('OR')) {
      i++;
      terms.push(term());
    }
    return terms.length === 1 ? terms[0]! : (d) => terms.some((t) => t(d));
  }

  function expression(): Filter {
    const factors = [factor()];
    // AND, or two factors side by side (AIP-160's implicit AND).
    while (peek() && peek()!.kind !== 'close') {
      if (keyword('AND')) i++;
      factors.push(factor());
    }
    return factors.length === 1 ? factors[0]! : (d) => factors.every((f) => f(d));
  }

  if (tokens.length === 0) return () => true;
  const filter = expression();
  if (i < tokens.length) fail(`unexpected ${JSON.stringify(tokens[i]!.text)} at character ${tokens[i]!.at + 1}`);
  return filter;
}
