// @ts-check
// Splitting a large generated module into pieces that format independently. A top-level statement formats the
// same alone as in its file, so a multi-megabyte module is formatted as a few hundred kilobytes at a time: the
// formatter's native memory (syntax tree and layout) is held for one piece at a time per core instead of for the
// whole file, and the pieces of one big file spread over every core. The pieces are cut only where a blank line
// is followed by a line that starts a statement or a comment at column 0 (a letter, `//`, `/*`), and rejoined
// with that blank line; a piece the formatter cannot parse on its own makes the caller format the whole file.
// Plain JavaScript (checked by tsc through JSDoc): the render worker loads it without tsx (render-worker.mjs).

/**
 * Pieces of about `target` characters whose join with '\n' is `text` (one piece when there is no safe cut).
 * @param {string} text
 * @param {number} target
 * @returns {string[]}
 */
export function splitAtTopLevel(text, target) {
  if (text.length <= target * 2) return [text];
  /** @type {string[]} */
  const pieces = [];
  let start = 0;
  let from = start + target;
  while (from < text.length) {
    const cut = nextCut(text, from);
    if (cut === -1) break;
    // `cut` is the index of the blank line's '\n'; the piece ends before it, the next begins after it.
    pieces.push(text.slice(start, cut));
    start = cut + 1;
    from = start + target;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * The first blank line at or after `from` that is followed by a column-0 statement or comment; -1 if none.
 * @param {string} text
 * @param {number} from
 * @returns {number}
 */
function nextCut(text, from) {
  for (let i = text.indexOf('\n\n', from); i !== -1; i = text.indexOf('\n\n', i + 1)) {
    const next = text.charCodeAt(i + 2);
    const isLetter = (next >= 97 && next <= 122) || (next >= 65 && next <= 90) || next === 36 || next === 95; // a-z A-Z $ _
    if (isLetter || (next === 47 && (text[i + 3] === '/' || text[i + 3] === '*'))) return i + 1;
  }
  return -1;
}
