// The sandbox and conformance packages: README and CHANGELOG are emitted with the other files (emitRuntimeDocs);
// the runtime and package.json are added once the generated data is rendered (finishRuntimePackages), because
// the runtime bundles that data and package.json declares what the bundle imports.
import type { ReleaseHistory } from '../../diff/release.js';
import type { ApiModel } from '../../model/ir.js';
import type { BuildCache } from '../../write/build-cache.js';
import { withHeader } from '../../write/header.js';
import type { EmittedFile } from '../emitted-file.js';
import { renderTemplate } from '../templates.js';
import { changelog } from './changelog.js';
import { declares, packageManifest, rootRange } from './manifest.js';
import { RUNTIME_PACKAGES, SANDBOX_PACKAGE } from './packages.js';
import { buildRuntime } from './runtime-build.js';
import { collectGarbage } from '../../write/collect-garbage.js';

function basePath(model: ApiModel): string {
  const server = model.catalog[0]?.servers[0];
  if (!server) return '';
  try {
    return new URL(server, 'http://host').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

export function emitRuntimeDocs(model: ApiModel, history: ReleaseHistory): EmittedFile[] {
  return RUNTIME_PACKAGES.flatMap((pkg) => [
    {
      path: `${pkg.dir}/README.md`,
      kind: 'asset' as const,
      contents: renderTemplate(pkg.template, { packageName: pkg.name, title: model.title, operationCount: model.operations.length, version: history.version, bin: pkg.bin, basePath: basePath(model) }),
    },
    { path: `${pkg.dir}/CHANGELOG.md`, kind: 'asset' as const, contents: changelog(pkg.name, history) },
  ]);
}

/** The runtime files and package.json of each runtime package, with the do-not-edit header, by output path. */
/** Native packages a runtime loads on first use only; see finishRuntimePackages. */
const OPTIONAL_NATIVE = ['libpq'];

export async function finishRuntimePackages(rendered: ReadonlyMap<string, string>, model: ApiModel, history: ReleaseHistory, options: { cache?: BuildCache } = {}): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const pkg of RUNTIME_PACKAGES) {
    const built = await buildRuntime(pkg.runtime, rendered, options);
    // Its TypeScript program (the generated declarations parsed, hundreds of megabytes on a large spec) is garbage now.
    collectGarbage();
    for (const [path, text] of built.files) {
      // The bin starts with its interpreter line; the header follows it.
      out.set(path, path === `${pkg.dir}/cli.js` ? `#!/usr/bin/env node\n${withHeader(path, text, model.specHash)}` : withHeader(path, text, model.specHash));
    }
    const peers = Object.fromEntries(Object.keys(pkg.optionalPeers ?? {}).map((name) => [name, name === SANDBOX_PACKAGE.name ? `^${history.version}` : pkg.optionalPeers![name]!]));
    const needed = [...new Set([...built.imports, ...built.loadedOnUse, ...built.typeImports.map((name) => (declares(`@types/${name}`) ? `@types/${name}` : name))])];
    // Native bindings only some uses need (libpq: a team sandbox on PostgreSQL) are optional peers, loaded on first
    // use, so installing the package never builds them for a user who does not need them.
    const dependencies = needed.filter((name) => !OPTIONAL_NATIVE.includes(name));
    for (const name of needed.filter((n) => OPTIONAL_NATIVE.includes(n))) peers[name] = rootRange(name);
    const manifest = packageManifest({
      name: pkg.name,
      version: history.version,
      description: `${pkg.description} of ${model.title}, generated from its OpenAPI description.`,
      modules: [],
      bin: { [pkg.bin]: './cli.js' },
      files: ['index.js', 'index.d.ts', 'cli.js', 'types', 'README.md', 'CHANGELOG.md'],
      dependencies,
      generatedDependencies: Object.fromEntries(built.generatedImports.map((name) => [name, history.version])),
      optionalPeers: peers,
      specHash: model.specHash,
    });
    out.set(`${pkg.dir}/package.json`, withHeader(`${pkg.dir}/package.json`, manifest, model.specHash));
  }
  return out;
}
