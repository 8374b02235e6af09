// `client/operations.ts`: the tree-shakable operation functions. Runtime values are imported under `$`
// aliases (operation names come from `valueName`, which never starts with `$`), types under their own names
// (operation types always end in a part suffix, so they cannot meet the runtime's type names).
import type { ApiModel } from '../../model/ir.js';
import type { Names } from '../naming.js';
import { usesValidators } from './operation-descriptor.js';
import { operationFunctions } from './operation-function.js';
import type { OperationSignature } from './signature.js';

export function operationsModule(model: ApiModel, names: Names, sigs: OperationSignature[]): string {
  const typeImports = [...new Set(sigs.flatMap((s) => s.typeImports))].sort();
  const paginated = sigs.some((s) => s.iterator !== undefined);
  const runtimeTypes = ['CallOptions', 'ClientConfig', 'OperationSpec', ...(paginated ? ['PageItem', 'PagingSpec'] : [])];
  const header = [
    '// Operation functions: one per operation, taking the config from `createConfig` (or `client.raw`).',
    `import { ${paginated ? 'paginate as $paginate, ' : ''}request as $request } from './runtime.js';`,
    `import type { ${runtimeTypes.join(', ')} } from './runtime.js';`,
    ...(typeImports.length > 0 ? [`import type { ${typeImports.join(', ')} } from './types.js';`] : []),
    ...(model.operations.some(usesValidators) ? [`import * as validators from './validators.js';`] : []),
  ];
  const body = sigs.map((sig) => operationFunctions(sig, model, names));
  return `${header.join('\n')}\n\n${body.join('\n')}`;
}
