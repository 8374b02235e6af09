// Compiling a generated module: the `.js` has no types left and runs, the `.d.ts` declares every export with its
// type, and a module that breaks the contract (a syntax error, or an export without an explicit type, which
// isolated declarations cannot describe) fails the run naming the file and line instead of shipping a guess.
import { describe, expect, it } from 'vitest';
import { compileModule } from '../../src/write/compile.js';

const source = `import type { Other } from './other.js';
/** A colour. */
export type Colour = 'red' | 'green';
export const colours: readonly Colour[] = ['red', 'green'];
/** Picks one. */
export function pick(index: number, fallback?: Other): Colour | Other | undefined {
  return colours[index] ?? fallback;
}
export class Box<T> {
  constructor(readonly value: T) {}
  get twice(): [T, T] { return [this.value, this.value]; }
}
`;

describe('compileModule', () => {
  it('strips the types into runnable JavaScript and declares every export', async () => {
    const { js, dts } = await compileModule('pkg/values.ts', source);
    expect(js).not.toMatch(/import type|: Colour|readonly Colour|<T>|export type/);
    const module = (await import(`data:text/javascript,${encodeURIComponent(js)}`)) as { colours: string[]; pick(i: number): string; Box: new (v: number) => { twice: number[] } };
    expect(module.colours).toEqual(['red', 'green']);
    expect(module.pick(1)).toBe('green');
    expect(new module.Box(2).twice).toEqual([2, 2]);
    expect(dts).toContain('/** A colour. */');
    expect(dts).toMatch(/export type Colour = "red" \| "green";/);
    expect(dts).toMatch(/export declare const colours: readonly Colour\[\];/);
    expect(dts).toMatch(/export declare function pick\(index: number, fallback\?: Other\): Colour \| Other \| undefined;/);
    expect(dts).toMatch(/export declare class Box<T>/);
    expect(dts).not.toContain('return');
  });

  it('refuses an export without an explicit type, naming the file and line', async () => {
    await expect(compileModule('pkg/bad.ts', 'export const ok: number = 1;\nexport const bad = make();\nfunction make(): number { return 1; }\n')).rejects.toThrow(/pkg\/bad\.ts:2: .*explicit type annotation/);
  });

  it('refuses a syntax error as a generator bug', async () => {
    await expect(compileModule('pkg/broken.ts', 'export const = ;\n')).rejects.toThrow(/generated module pkg\/broken\.ts does not compile \(a generator bug\)/);
  });
});
