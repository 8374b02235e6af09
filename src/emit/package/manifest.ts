// package.json of a generated package, from templates/package/package.json.hbs. The template is the file's
// skeleton; what goes in it (exports, dependencies with the ranges the toolchain itself uses) is computed here.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTemplate } from '../templates.js';

export interface ManifestSpec {
  name: string;
  version: string;
  description: string;
  /** Module base names besides the index (`types`, `validators`, ...), each an export subpath. */
  modules: string[];
  bin?: Record<string, string>;
  /** What the tarball holds, when not everything in the folder. */
  files?: string[];
  /** npm packages the package imports at run time or in its declarations. */
  dependencies?: string[];
  /** Packages generated in the same run that it imports (name -> version): the version is exact, since both come from one spec. */
  generatedDependencies?: Record<string, string>;
  /** Optional peer packages (`@evalplatform/sandbox` for the conformance suite's in-process mode). */
  optionalPeers?: Record<string, string>;
  specHash: string;
}

const ROOT_MANIFEST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'package.json');
let rootRanges: Record<string, string> | undefined;

function ranges(): Record<string, string> {
  rootRanges ??= (() => {
    const root = JSON.parse(readFileSync(ROOT_MANIFEST, 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    return { ...root.devDependencies, ...root.dependencies };
  })();
  return rootRanges;
}

/** Whether the toolchain declares this package (used to pick `@types/<name>` for a package without types). */
export function declares(name: string): boolean {
  return Object.hasOwn(ranges(), name);
}

/** The version range this toolchain declares for a package (the generated package asks for the same). */
export function rootRange(name: string): string {
  const range = ranges()[name];
  if (range === undefined) throw new Error(`a generated package imports ${name}, which package.json does not declare`);
  return range;
}

function sorted<T>(entries: [string, T][]): Record<string, T> | null {
  return entries.length === 0 ? null : Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function packageManifest(spec: ManifestSpec): string {
  const exportsMap: Record<string, { types: string; default: string }> = { '.': { types: './index.d.ts', default: './index.js' } };
  for (const m of spec.modules) exportsMap[`./${m}`] = { types: `./${m}.d.ts`, default: `./${m}.js` };
  const text = renderTemplate('package/package.json.hbs', {
    name: spec.name,
    version: spec.version,
    description: spec.description,
    exports: exportsMap,
    bin: spec.bin ?? null,
    files: spec.files ?? null,
    dependencies: sorted([...(spec.dependencies ?? []).map((name): [string, string] => [name, rootRange(name)]), ...Object.entries(spec.generatedDependencies ?? {})]),
    peerDependencies: sorted(Object.entries(spec.optionalPeers ?? {})),
    peerDependenciesMeta: sorted(Object.keys(spec.optionalPeers ?? {}).map((name) => [name, { optional: true }])),
    specHash: spec.specHash,
  });
  // Absent fields are rendered as null by the skeleton and left out of the file.
  const value = JSON.parse(text) as Record<string, unknown>;
  for (const [key, v] of Object.entries(value)) if (v === null) delete value[key];
  return `${JSON.stringify(value, null, 2)}\n`;
}
