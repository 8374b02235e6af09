// How many stored records the process has decoded (parsed from the database's text). A cost measure, not a
// behaviour: the tests of issue 29 read it around one request to show that a list decodes its page, not every
// live record of its kind.
let decoded = 0;

/** Counts `n` records decoded (both stores' row readers call it). */
export function countDecoded(n = 1): void {
  decoded += n;
}

/** Records decoded since the process started. */
export function recordsDecoded(): number {
  return decoded;
}
