// @ts-check
// A generated TypeScript module -> the `.js` and `.d.ts` a package ships, in one native pass of oxc-transform
// (type stripping and isolated declarations from one parse; no program, no type check), run on a native thread so
// the main thread goes on emitting meanwhile. The emitters write code
// that satisfies `isolatedDeclarations` (explicit types on every export), which is what makes per-file
// declaration emit possible; a module that does not is a generator bug and fails the run.
// Plain JavaScript (checked by tsc through JSDoc), like everything the render worker loads: the worker starts
// without tsx, whether the CLI runs from its bundle or from its TypeScript sources (render-worker.mjs).
import { createRequire } from 'node:module';
import { returnNativeMemoryPromptly } from './native-memory.js';

/** @typedef {import('oxc-transform').TransformOptions} TransformOptions */
/** @typedef {import('oxc-transform').TransformResult} TransformResult */

/**
 * Loaded on first use, so a run that renders nothing (an unchanged spec) never loads the native binding.
 * @type {typeof import('oxc-transform') | undefined}
 */
let oxc;
/** @returns {typeof import('oxc-transform')} */
function loadOxc() {
  if (oxc === undefined) returnNativeMemoryPromptly();
  oxc ??= /** @type {typeof import('oxc-transform')} */ (createRequire(import.meta.url)('oxc-transform'));
  return oxc;
}

/** @type {TransformOptions} */
const OPTIONS = {
  lang: 'ts',
  sourceType: 'module',
  // ES2022 is what the packages promise (Node 20, current browsers): nothing is lowered below it.
  target: 'es2022',
  typescript: { declaration: { stripInternal: false } },
  sourcemap: false,
};

/**
 * @param {string} fileName
 * @param {string} source
 * @returns {Promise<{ js: string, dts: string }>}
 */
export async function compileModule(fileName, source) {
  return checked(fileName, source, await loadOxc().transform(fileName, source, OPTIONS));
}

/**
 * The same pass on the calling thread, for the generator's own small modules read once (validator helpers).
 * @param {string} fileName
 * @param {string} source
 * @returns {{ js: string, dts: string }}
 */
export function compileModuleSync(fileName, source) {
  return checked(fileName, source, loadOxc().transformSync(fileName, source, OPTIONS));
}

/**
 * @param {string} fileName
 * @param {string} source
 * @param {TransformResult} result
 * @returns {{ js: string, dts: string }}
 */
function checked(fileName, source, result) {
  const errors = result.errors.filter((e) => e.severity === 'Error');
  if (errors.length > 0 || result.declaration === undefined) {
    const text = errors.slice(0, 5).map((e) => `${fileName}:${lineAt(source, e.labels[0]?.start)}${e.message}`);
    throw new Error(`generated module ${fileName} does not compile (a generator bug):\n${text.join('\n') || 'no declaration emitted'}`);
  }
  return { js: result.code, dts: result.declaration };
}

/**
 * @param {string} source
 * @param {number | undefined} offset
 * @returns {string}
 */
function lineAt(source, offset) {
  if (offset === undefined) return ' ';
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) line++;
  return `${line}: `;
}
