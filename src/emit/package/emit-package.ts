// package.json, index module, README and CHANGELOG of a generated client package, from the modules it contains.
import { jsString } from '../../encode/index.js';
import { firstRelease, type ReleaseHistory } from '../../diff/release.js';
import type { ApiModel } from '../../model/ir.js';
import type { EmittedFile } from '../emitted-file.js';
import { changelog } from './changelog.js';
import { packageManifest } from './manifest.js';

export interface PackageSpec {
  dir: string;
  name: string;
  description: string;
  /** Module base names (without extension) the package contains, e.g. ['types', 'validators', 'client']. */
  modules: string[];
  readme: string;
  /** Whether this emitter writes `index.ts` (re-exporting every module); off when another emitter owns it. */
  index: boolean;
  /** Version and release history (default: a first release). */
  history?: ReleaseHistory;
}

export function emitPackage(model: ApiModel, pkg: PackageSpec): EmittedFile[] {
  const history = pkg.history ?? firstRelease();
  const manifest = packageManifest({ name: pkg.name, version: history.version, description: pkg.description, modules: pkg.modules, specHash: model.specHash });
  const index = pkg.modules.map((m) => `export * from ${jsString(`./${m}.js`)};`).join('\n');
  return [
    { path: `${pkg.dir}/package.json`, kind: 'asset', contents: manifest },
    ...(pkg.index ? [{ path: `${pkg.dir}/index.ts`, kind: 'module' as const, contents: `${index}\n` }] : []),
    { path: `${pkg.dir}/README.md`, kind: 'asset', contents: pkg.readme },
    { path: `${pkg.dir}/CHANGELOG.md`, kind: 'asset', contents: changelog(pkg.name, history) },
  ];
}
