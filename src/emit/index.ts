// Every emitter, in one place: what `npm run generate` produces for a model.
import type { ApiModel } from '../model/ir.js';
import type { EmittedFile } from './emitted-file.js';
import type { Names } from './naming.js';
import { emitClient } from './client/index.js';
import { emitPackage } from './package/emit-package.js';
import { clientReadme } from './package/readme.js';
import { emitTypes } from './types/emit-types.js';
import { emitValidators } from './validators/emit-validators.js';
import { emitServer, type ServedDocument } from './server/emit-server.js';
import { emitConformance } from './conformance/emit-conformance.js';
import { CLIENT_PACKAGE } from './package/packages.js';
import { emitRuntimeDocs } from './package/runtime-packages.js';
import { firstRelease, type ReleaseHistory } from '../diff/release.js';

export interface EmitOptions {
  /** The bundled documents the sandbox serves at /openapi. */
  documents?: readonly ServedDocument[];
  /** Folder and npm name of the client package (default `client`, `@evalplatform/client`). */
  clientDir?: string;
  packageName?: string;
  /** Whether to emit the sandbox's route table (default true). */
  sandbox?: boolean;
  /** Version and release history of the packages (default: a first release). */
  history?: ReleaseHistory;
}

/** The client package (types, validators, runtime, operations, client) under `dir`. */
function emitClientPackage(model: ApiModel, names: Names, dir: string, packageName: string, history: ReleaseHistory): EmittedFile[] {
  const modules = ['types', 'validators', 'runtime', 'operations', 'client'];
  const files = [
    emitTypes(model, names, 'client'),
    ...emitValidators(model, names, 'client'),
    // The client emitter owns client/index.ts: it resolves name clashes between operations and runtime helpers.
    ...emitClient(model, names),
    ...emitPackage(model, {
      dir: 'client',
      name: packageName,
      description: `Typed client, types and run-time validators for ${model.title}, generated from its OpenAPI description.`,
      modules,
      readme: clientReadme(model, packageName, modules),
      index: false,
      history,
    }),
  ];
  // Imports inside the package are relative (`./types.js`), so the package can live under any folder.
  return dir === 'client' ? files : files.map((f) => ({ ...f, path: `${dir}/${f.path.slice('client/'.length)}` }));
}

export function emitAll(model: ApiModel, names: Names, options: EmitOptions = {}): EmittedFile[] {
  const history = options.history ?? firstRelease();
  return [
    ...emitClientPackage(model, names, options.clientDir ?? CLIENT_PACKAGE.dir, options.packageName ?? CLIENT_PACKAGE.name, history),
    // The sandbox's route table and served documents; its engine is hand-written (src/sandbox).
    ...(options.sandbox === false ? [] : emitServer(model, names, options.documents ?? [])),
    // The conformance suite's checks data; its runner is hand-written (src/conformance).
    ...(options.sandbox === false ? [] : emitConformance(model)),
    // README and CHANGELOG of the sandbox and conformance packages; their runtime and package.json are added
    // after rendering (package/runtime-packages.ts).
    ...(options.sandbox === false ? [] : emitRuntimeDocs(model, history)),
  ];
}
