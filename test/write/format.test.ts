// Formatting: code comes out in the project's style (prettier's options: 120 columns, single quotes, trailing
// commas, objects that fit on one line on one line), Markdown is tidied, and files the formatter has no business
// with (JSON, which the header step writes with JSON.stringify; unknown extensions) are left exactly as emitted.
import { describe, expect, it } from 'vitest';
import { formatFile } from '../../src/write/format.js';

describe('formatFile', () => {
  it('formats JavaScript and declarations in the project style', async () => {
    expect(await formatFile('a.js', 'export const a = {\n  "b": [1,2,3],\n  c: "x"\n}\n')).toBe("export const a = { b: [1, 2, 3], c: 'x' };\n");
    expect(await formatFile('a.d.ts', 'export declare const v: {a:string,b:number}[];\n')).toBe('export declare const v: { a: string; b: number }[];\n');
    const long = `export const list = [${Array.from({ length: 30 }, (_, i) => `"item${i}"`).join(',')}];\n`;
    const formatted = await formatFile('list.js', long);
    expect(formatted.split('\n').every((line) => line.length <= 120)).toBe(true);
    expect(formatted).toContain("  'item29',\n];");
  });

  it('keeps string escapes and comments as written', async () => {
    const text = "// why\nexport const s = '\\u003c/script\\u003e'; // trailing\n";
    expect(await formatFile('s.js', text)).toBe(text);
  });

  it('tidies Markdown and leaves JSON and unknown files alone', async () => {
    expect(await formatFile('README.md', '# Title\n*  item\n')).toBe('# Title\n\n- item\n');
    expect(await formatFile('package.json', '{"a":1}')).toBe('{"a":1}');
    expect(await formatFile('notes.txt', 'as  is')).toBe('as  is');
  });

  it('refuses text it cannot parse, naming the file', async () => {
    await expect(formatFile('broken.js', 'export const = ;')).rejects.toThrow(/cannot format broken\.js/);
  });
});
