// @ts-check
// Formatting with oxfmt (native, prettier-compatible) under a fixed configuration: no project or user config is
// read, so output is byte-identical on every machine. Prettier with the same options stays the style reference:
// test/write/prettier-reference.test.ts runs it over generated/ and names the only constructs where it differs.
// Plain JavaScript (checked by tsc through JSDoc): the render worker loads it without tsx (render-worker.mjs).

import { returnNativeMemoryPromptly } from './native-memory.js';

/** The style, in prettier's option names (the reference test hands the same options to prettier). */
export const STYLE = /** @type {const} */ ({ printWidth: 120, singleQuote: true, trailingComma: 'all', endOfLine: 'lf', proseWrap: 'preserve' });

/** @typedef {typeof STYLE & { objectWrap?: 'collapse' }} FormatOptions */

/**
 * The options for a file, or undefined for a file written as emitted. JSON is left alone: the header step writes
 * it with JSON.stringify (npm's own layout). Code gets `objectWrap: 'collapse'` because oxc prints every object
 * literal on several lines, and an object that fits on one line should read as one.
 * @param {string} path
 * @returns {FormatOptions | undefined}
 */
export function formatOptionsFor(path) {
  if (/\.(?:[cm]?js|ts)$/.test(path)) return { ...STYLE, objectWrap: 'collapse' };
  if (/\.(?:md|ya?ml)$/.test(path)) return { ...STYLE };
  return undefined;
}

/**
 * Imported on first use, so a run that renders nothing never loads it.
 * @type {Promise<typeof import('oxfmt')> | undefined}
 */
let oxfmt;

/**
 * @param {string} path
 * @param {string} contents
 * @returns {Promise<string>}
 */
export async function formatFile(path, contents) {
  const options = formatOptionsFor(path);
  if (options === undefined) return contents;
  if (oxfmt === undefined) returnNativeMemoryPromptly();
  oxfmt ??= import('oxfmt');
  const result = await (await oxfmt).format(path, contents, options);
  const errors = result.errors.filter((e) => e.severity === 'Error');
  if (errors.length > 0) throw new Error(`cannot format ${path} (a generator bug): ${errors[0]?.message}`);
  return result.code;
}
