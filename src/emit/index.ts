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
  /**
   * Called with each emitter's files as soon as they exist (before the next emitter runs), so rendering can start
   * while the rest is emitted; emitAll still returns them all.
   */
  onFiles?: (files: readonly EmittedFile[]) => void;
  /**
   * With onFiles: hand each emitter's files over and keep none (emitAll returns an empty list), so a file's source
   * can be let go once its renderer has it instead of living until the last emitter is done.
   */
  handOnly?: boolean;
}

/** The client package (types, validators, runtime, operations, client) under `dir`, handed over emitter by emitter. */
function emitClientPackage(model: ApiModel, names: Names, dir: string, packageName: string, history: ReleaseHistory, hand: (files: EmittedFile[]) => void): void {
  const modules = ['types', 'validators', 'runtime', 'operations', 'client'];
  // Imports inside the package are relative (`./types.js`), so the package can live under any folder.
  const place = (files: EmittedFile[]): void => hand(dir === 'client' ? files : files.map((f) => ({ ...f, path: `${dir}/${f.path.slice('client/'.length)}` })));
  // The validators first: the largest module of a large spec, so its formatting overlaps the other emitters.
  place(emitValidators(model, names, 'client'));
  place([emitTypes(model, names, 'client')]);
  // The client emitter owns client/index.ts: it resolves name clashes between operations and runtime helpers.
  place(emitClient(model, names));
  place(
    emitPackage(model, {
      dir: 'client',
      name: packageName,
      description: `Typed client, types and run-time validators for ${model.title}, generated from its OpenAPI description.`,
      modules,
      readme: clientReadme(model, names, packageName, modules),
      index: false,
      history,
    }),
  );
}

export function emitAll(model: ApiModel, names: Names, options: EmitOptions = {}): EmittedFile[] {
  const history = options.history ?? firstRelease();
  const all: EmittedFile[] = [];
  const keep = !(options.handOnly === true && options.onFiles !== undefined);
  const hand = (files: EmittedFile[]): void => {
    if (keep) all.push(...files);
    options.onFiles?.(files);
  };
  emitClientPackage(model, names, options.clientDir ?? CLIENT_PACKAGE.dir, options.packageName ?? CLIENT_PACKAGE.name, history, hand);
  if (options.sandbox !== false) {
    // The sandbox's route table and served documents; its engine is hand-written (src/sandbox).
    hand(emitServer(model, names, options.documents ?? []));
    // The conformance suite's checks data; its runner is hand-written (src/conformance).
    hand(emitConformance(model));
    // README and CHANGELOG of the sandbox and conformance packages; their runtime and package.json are added
    // after rendering (package/runtime-packages.ts).
    hand(emitRuntimeDocs(model, history));
  }
  return all;
}
