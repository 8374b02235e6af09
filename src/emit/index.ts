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

export function emitAll(model: ApiModel, names: Names, documents: readonly ServedDocument[] = []): EmittedFile[] {
  const modules = ['types', 'validators', 'runtime', 'operations', 'client'];
  return [
    emitTypes(model, names, 'client'),
    ...emitValidators(model, names, 'client'),
    // The client emitter owns client/index.ts: it resolves name clashes between operations and runtime helpers.
    ...emitClient(model, names),
    ...emitPackage(model, {
      dir: 'client',
      name: '@evalplatform/client',
      description: `Typed client, types and run-time validators for ${model.title}, generated from its OpenAPI description.`,
      modules,
      readme: clientReadme(model, '@evalplatform/client', modules),
      index: false,
    }),
    // The sandbox's route table and served documents; its engine is hand-written (src/sandbox).
    ...emitServer(model, names, documents),
  ];
}
