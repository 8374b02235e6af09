// A fast reading of the common YAML document: js-yaml's event parser (several times faster than building the
// `yaml` package's Document, which was most of the load stage on spec/) and a small constructor that gives the value
// `yaml` gives under parse.ts's options: the YAML 1.2 core schema for plain scalars (the resolvers below are the
// `yaml` package's core schema), and every mapping key read as a string (`stringKeys`).
// Anything outside that common ground answers undefined, and parse.ts reads the text with `yaml` as before, so the
// value, the errors and the limits for such a document are exactly the reference parser's: a syntax error, a
// duplicate key, an anchor, an alias or a tag, a directive, a key that is not a scalar, `__proto__` as a key, a
// nesting deeper than the limit, or a source that is not exactly one document.
// test/load/yaml-fast.test.ts holds this reading equal to `yaml`'s over spec/ and the corpus.
import { EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE, type Event, type ScalarEvent } from 'js-yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A plain scalar's value under the YAML 1.2 core schema, as the `yaml` package resolves it (int, float, bool, null). */
export function coreScalar(text: string): Json {
  const c = text.charCodeAt(0);
  // Only these first characters can start a non-string: digits, sign, dot, and the letters of null/true/false, `~`.
  const numeric = (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46;
  if (!numeric) {
    if (text === '' || /^(?:~|[Nn]ull|NULL)$/.test(text)) return null;
    if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(text)) return c === 116 || c === 84;
    return text;
  }
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(text)) return parseInt(text, 10);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(text)) return text.slice(-3).toLowerCase() === 'nan' ? NaN : c === 45 ? -Infinity : Infinity;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(text)) return parseFloat(text);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(text)) return parseFloat(text);
  return text;
}

/** Not the common ground: the caller reads the document with `yaml`. */
class Unsupported extends Error {}

/** The document's value, or undefined when the reference parser must read it (see the top of the file). */
export function readCommonYaml(text: string, maxDepth: number): unknown {
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth });
  } catch {
    return undefined;
  }
  try {
    return construct(text, events);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function construct(text: string, events: Event[]): Json {
  const doc = events[0];
  if (events.length < 3 || doc?.type !== EVENT_ID.DOCUMENT || doc.directives.length > 0 || events[events.length - 1]!.type !== EVENT_ID.POP) throw new Unsupported();
  let at = 1;
  const node = (): Json => {
    const event = events[at++]!;
    switch (event.type) {
      case EVENT_ID.SCALAR:
        if (event.anchorStart !== -1 || event.tagStart !== -1) throw new Unsupported();
        return event.style === SCALAR_STYLE.PLAIN ? coreScalar(getScalarValue(text, event)) : getScalarValue(text, event);
      case EVENT_ID.SEQUENCE: {
        if (event.anchorStart !== -1 || event.tagStart !== -1) throw new Unsupported();
        const items: Json[] = [];
        while (events[at]!.type !== EVENT_ID.POP) items.push(node());
        at++;
        return items;
      }
      case EVENT_ID.MAPPING: {
        if (event.anchorStart !== -1 || event.tagStart !== -1) throw new Unsupported();
        const map: { [key: string]: Json } = {};
        while (events[at]!.type !== EVENT_ID.POP) {
          const keyEvent = events[at++]!;
          if (keyEvent.type !== EVENT_ID.SCALAR || keyEvent.anchorStart !== -1 || keyEvent.tagStart !== -1) throw new Unsupported();
          const key = scalarKey(text, keyEvent);
          if (Object.prototype.hasOwnProperty.call(map, key)) throw new Unsupported();
          map[key] = node();
        }
        at++;
        return map;
      }
      default:
        // An alias, or a document or end where a node belongs.
        throw new Unsupported();
    }
  };
  const value = node();
  // Exactly one document: its node, then its end, then nothing.
  if (at !== events.length - 1) throw new Unsupported();
  return value;
}

/** A mapping key as `yaml`'s `stringKeys` reads it: the scalar's text, whatever its style. */
function scalarKey(text: string, event: ScalarEvent): string {
  const key = getScalarValue(text, event);
  // An empty plain key is YAML's null key; `__proto__` would set the prototype of a plain object.
  if ((key === '' && event.style === SCALAR_STYLE.PLAIN) || key === '__proto__') throw new Unsupported();
  return key;
}
