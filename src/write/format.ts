// Formatting with prettier and a fixed configuration (no project or user config is read), so output is
// byte-identical on every machine.
import type { Options } from 'prettier';

const CONFIG: Options = { printWidth: 120, singleQuote: true, trailingComma: 'all', endOfLine: 'lf', proseWrap: 'preserve' };

function parserFor(path: string): string | undefined {
  if (/\.d\.ts$|\.ts$/.test(path)) return 'typescript';
  if (/\.[cm]?js$/.test(path)) return 'babel';
  if (/\.json$/.test(path)) return 'json';
  if (/\.md$/.test(path)) return 'markdown';
  if (/\.ya?ml$/.test(path)) return 'yaml';
  return undefined;
}

/** The prettier options for a file, or undefined for a file prettier does not format (left as it is). */
export function formatOptionsFor(path: string): Options | undefined {
  const parser = parserFor(path);
  return parser === undefined ? undefined : { ...CONFIG, parser };
}

export async function formatFile(path: string, contents: string): Promise<string> {
  const options = formatOptionsFor(path);
  if (options === undefined) return contents;
  // Imported on first use: a run served from the render cache, or formatting in workers, never loads it here.
  const prettier = (await import('prettier')).default;
  return prettier.format(contents, options);
}
