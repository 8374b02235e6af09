// package.json, index module and README of a generated package, from the modules it contains.
import { jsString } from '../../encode/index.js';
import type { ApiModel } from '../../model/ir.js';
import type { EmittedFile } from '../emitted-file.js';

export interface PackageSpec {
  dir: string;
  name: string;
  description: string;
  /** Module base names (without extension) the package contains, e.g. ['types', 'validators', 'client']. */
  modules: string[];
  readme: string;
  /** Whether this emitter writes `index.ts` (re-exporting every module); off when another emitter owns it. */
  index: boolean;
}

export function emitPackage(model: ApiModel, pkg: PackageSpec): EmittedFile[] {
  const exportsMap: Record<string, { types: string; default: string }> = {
    '.': { types: './index.d.ts', default: './index.js' },
  };
  for (const m of pkg.modules) exportsMap[`./${m}`] = { types: `./${m}.d.ts`, default: `./${m}.js` };
  const manifest = {
    name: pkg.name,
    version: '0.1.0',
    description: pkg.description,
    type: 'module',
    sideEffects: false,
    main: './index.js',
    types: './index.d.ts',
    exports: exportsMap,
    engines: { node: '>=20' },
    specHash: model.specHash,
  };
  const index = pkg.modules.map((m) => `export * from ${jsString(`./${m}.js`)};`).join('\n');
  return [
    { path: `${pkg.dir}/package.json`, kind: 'asset', contents: JSON.stringify(manifest, null, 2) },
    ...(pkg.index ? [{ path: `${pkg.dir}/index.ts`, kind: 'module' as const, contents: `${index}\n` }] : []),
    { path: `${pkg.dir}/README.md`, kind: 'asset', contents: pkg.readme },
  ];
}
