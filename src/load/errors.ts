// Errors about a spec say what (reason), where (spec name, JSON pointer, line when known) and why.

export class SpecError extends Error {
  override readonly name = 'SpecError';
  constructor(
    readonly spec: string,
    readonly pointer: string,
    readonly reason: string,
    readonly line?: number,
  ) {
    super(printable(`${spec}: ${pointer === '' ? '#' : pointer}${line === undefined ? '' : ` (line ${line})`}: ${reason}`));
  }
}

/** Control characters and line separators from a spec (names, paths) are shown escaped, never sent to a terminal. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** JSON pointer (RFC 6901) of a path of keys. */
export function pointerOf(path: readonly (string | number)[]): string {
  return path.length === 0 ? '#' : `#/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** Keys of a JSON pointer fragment (`#/a/b~1c` -> ['a', 'b/c']). */
export function pointerKeys(fragment: string): string[] {
  const body = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (body === '' || body === '/') return body === '/' ? [''] : [];
  if (!body.startsWith('/')) throw new Error(`not a JSON pointer: ${fragment}`);
  return body
    .slice(1)
    .split('/')
    .map((k) => decodeURIComponent(k).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * A violation the lenient policy lets pass: the document is still usable, so generation goes on and the warning
 * is reported (`warning: <spec>: <pointer> (line N): <reason>`) and counted in the summary.
 */
export interface SpecWarning {
  spec: string;
  pointer: string;
  line?: number;
  reason: string;
}

/** One line for a warning, in the same shape as a SpecError's message. */
export function warningText(w: SpecWarning): string {
  return printable(`${w.spec}: ${w.pointer === '' ? '#' : w.pointer}${w.line === undefined ? '' : ` (line ${w.line})`}: ${w.reason}`);
}
