// The typed-client emitter: from the model to `client/runtime.ts` (with `client/runtime/*.ts`), `client/operations.ts`, `client/client.ts`
// and `client/index.ts`. Types (`client/types.ts`) and validators (`client/validators.ts`) come from their own
// emitters; this one imports them by the names `buildNames` gives.
import type { ApiModel } from '../../model/ir.js';
import type { EmittedFile } from '../emitted-file.js';
import type { Names } from '../naming.js';
import { clientModule } from './client-object.js';
import { errorCodesModule } from './error-codes-module.js';
import { indexModule } from './index-module.js';
import { operationsModule } from './operations-module.js';
import { runtimeParts, runtimeSource } from './runtime-source.js';
import { operationSignatures } from './signature.js';

export function emitClient(model: ApiModel, names: Names): EmittedFile[] {
  const sigs = operationSignatures(model, names);
  return [
    { path: 'client/runtime.ts', contents: runtimeSource(), kind: 'module' },
    ...runtimeParts().map((part) => ({ path: `client/${part.path}`, contents: part.contents, kind: 'module' as const })),
    { path: 'client/runtime/error-codes.ts', contents: errorCodesModule(model), kind: 'module' },
    { path: 'client/operations.ts', contents: operationsModule(model, names, sigs), kind: 'module' },
    { path: 'client/client.ts', contents: clientModule(model, names, sigs), kind: 'module' },
    { path: 'client/index.ts', contents: indexModule(sigs), kind: 'module' },
  ];
}
