// Text -> JSON value, safely: size, aliases and depth are bounded, duplicate keys are errors,
// and positions are kept so later errors can name a line (built when one is asked for).
import { createRequire } from 'node:module';
import type { Node } from 'yaml';
import { SpecError, pointerKeys } from './errors.js';
import type { LoadLimits } from './limits.js';
import { readCommonYaml } from './yaml-fast.js';

export interface ParsedText {
  value: unknown;
  /** Line (1-based) of the node at a JSON pointer, when it can be found. */
  lineOf(pointer: string): number | undefined;
}

export function parseSpecText(spec: string, text: string, limits: LoadLimits): ParsedText {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxDocumentBytes) {
    throw new SpecError(spec, '#', `document is ${bytes} bytes, more than the limit of ${limits.maxDocumentBytes} bytes`);
  }
  const trimmed = text.trimStart();
  let value: unknown;
  let lineOf: (pointer: string) => number | undefined = () => undefined;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    // JSON is a subset of YAML, but JSON.parse is an order of magnitude faster on multi-megabyte specs.
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new SpecError(spec, '#', `invalid JSON: ${(error as Error).message}`);
    }
  } else {
    // The common document is read by the fast reader (yaml-fast.ts), which gives the value `yaml` gives; `yaml`
    // reads everything else, and builds the positions only when a line is asked for (an error or a warning).
    const fast = readCommonYaml(text, limits.maxDepth);
    if (fast !== undefined) {
      value = fast;
      let positions: ((pointer: string) => number | undefined) | undefined;
      lineOf = (pointer) => (positions ??= readYaml(spec, text, limits).lineOf)(pointer);
    } else ({ value, lineOf } = readYaml(spec, text, limits));
  }
  checkDepth(spec, value, limits.maxDepth);
  return { value, lineOf };
}

let yaml: typeof import('yaml') | undefined;

/** A YAML document read by the `yaml` package: its value, and the line of a node at a JSON pointer. */
function readYaml(spec: string, text: string, limits: LoadLimits): ParsedText {
  // Loaded when first needed: a run whose documents are all JSON or common YAML never loads it.
  yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const { LineCounter, parseDocument, isMap, isSeq, isScalar } = yaml;
  const lines = new LineCounter();
  let doc;
  try {
    doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, stringKeys: true });
  } catch (error) {
    throw new SpecError(spec, '#', `YAML could not be parsed: ${(error as Error).message}`);
  }
  const problem = doc.errors[0];
  if (problem) {
    const line = problem.linePos?.[0]?.line ?? lines.linePos(problem.pos[0]).line;
    if (isStackOverflow(problem.message)) throw new SpecError(spec, '#', tooDeep(limits), line);
    throw new SpecError(spec, '#', `invalid YAML: ${problem.message.split('\n')[0]}`, line);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: limits.maxAliases });
  } catch (error) {
    const message = (error as Error).message;
    if (isStackOverflow(message)) throw new SpecError(spec, '#', tooDeep(limits));
    throw new SpecError(spec, '#', /alias/i.test(message) ? `too many YAML aliases (limit ${limits.maxAliases}): ${message}` : `YAML could not be read: ${message}`);
  }
  const lineOf = (pointer: string): number | undefined => {
    let node: Node | null | undefined = doc.contents as Node | null;
    for (const key of pointerKeys(pointer)) {
      if (isMap(node)) node = node.get(key, true) as Node | undefined;
      else if (isSeq(node)) node = node.get(Number(key), true) as Node | undefined;
      else return undefined;
      if (isScalar(node) && node.value === null && node.range === undefined) return undefined;
    }
    return node?.range ? lines.linePos(node.range[0]).line : undefined;
  };
  return { value, lineOf };
}

// The YAML composer recurses once per nesting level: a document nested thousands of levels deep overflows the
// stack inside it (a RangeError the parser reports as a document error). That is the same limit, met earlier.
function isStackOverflow(message: string): boolean {
  return /maximum call stack/i.test(message);
}

function tooDeep(limits: LoadLimits): string {
  return `document nests deeper than the limit of ${limits.maxDepth} levels (too deep for the YAML parser)`;
}

/** Iterative depth check, so a hostile document cannot overflow the stack of whatever walks it later. */
function checkDepth(spec: string, root: unknown, maxDepth: number): void {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) throw new SpecError(spec, '#', `document nests deeper than the limit of ${maxDepth} levels`);
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
}
