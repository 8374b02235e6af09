// Formatting with prettier and a fixed configuration (no project or user config is read), so output is
// byte-identical on every machine.
import prettier from 'prettier';

const CONFIG: prettier.Options = { printWidth: 120, singleQuote: true, trailingComma: 'all', endOfLine: 'lf', proseWrap: 'preserve' };

function parserFor(path: string): string | undefined {
  if (/\.d\.ts$|\.ts$/.test(path)) return 'typescript';
  if (/\.[cm]?js$/.test(path)) return 'babel';
  if (/\.json$/.test(path)) return 'json';
  if (/\.md$/.test(path)) return 'markdown';
  if (/\.ya?ml$/.test(path)) return 'yaml';
  return undefined;
}

export async function formatFile(path: string, contents: string): Promise<string> {
  const parser = parserFor(path);
  if (parser === undefined) return contents;
  return prettier.format(contents, { ...CONFIG, parser });
}
