// One exported async function per operation (plus `<fn>All` for paginated ones), each self-contained so
// bundlers can drop the operations an application does not call.
import { tokenPagination } from '../../model/paging.js';
import { jsDoc, jsString } from '../../encode/index.js';
import type { ApiModel } from '../../model/ir.js';
import type { Names } from '../naming.js';
import { operationDescriptor } from './operation-descriptor.js';
import { selectedOptions } from './selected-options.js';
import { parameterList, type OperationSignature } from './signature.js';

/** JSDoc of an operation function: summary, description, `METHOD path`, parameters, deprecation. */
export function operationDoc(sig: OperationSignature, extra: string[] = []): string {
  const op = sig.op;
  const text = [op.summary, op.description].filter((t): t is string => t !== undefined && t.trim() !== '').join('\n\n');
  // An operation selected by a header or query value (rule 36) names it beside its path: `POST / (X-Amz-Target: Svc.Op)`.
  const selected = (op.discriminators ?? []).map((d) => (d.value === undefined ? d.name : d.in === 'header' ? `${d.name}: ${d.value}` : `${d.name}=${d.value}`));
  const tags = [`\`${op.method.toUpperCase()} ${op.path}${selected.length > 0 ? ` (${selected.join(', ')})` : ''}\``, ...extra];
  for (const p of sig.params) if (p.description !== undefined) tags.push(`@param ${p.name} - ${p.description.replace(/\s+/g, ' ')}`);
  if (op.deprecated) tags.push(op.semantics.aliasOf !== undefined ? `@deprecated Use ${op.semantics.aliasOf}.` : '@deprecated');
  return jsDoc(text === '' ? undefined : text, tags);
}

function callFunction(sig: OperationSignature, model: ApiModel, names: Names): string {
  const input = [`pathValues: [${sig.pathArgs.join(', ')}]`, ...(sig.hasBody ? ['body'] : []), selectedOptions(sig.op)];
  return (
    operationDoc(sig) +
    `export async function ${sig.fn}(${parameterList(sig, true)}): Promise<${sig.returnType}> {\n` +
    `  const spec: OperationSpec = ${operationDescriptor(sig, model, names)};\n` +
    `  return (await $request(config, spec, { ${input.join(', ')} })) as ${sig.returnType};\n` +
    `}\n`
  );
}

function iteratorFunction(sig: OperationSignature): string {
  const paging = tokenPagination(sig.op)!;
  // Every argument but `options` is passed through unchanged; `paginate` varies the page token in `options`.
  const passThrough = sig.params.filter((p) => p.name !== 'options').map((p) => p.name);
  const call = `${sig.fn}(${['config', ...passThrough, 'pageOptions'].join(', ')})`;
  return (
    operationDoc(sig, [`Iterates the items (\`${paging.items}\`) of every page, following \`${paging.nextPageToken}\`.`]) +
    `export async function* ${sig.iterator}(${parameterList(sig, true)}): AsyncGenerator<${sig.itemType}, void, undefined> {\n` +
    `  const paging: PagingSpec = { items: ${jsString(paging.items)}, pageToken: ${jsString(paging.pageToken)}, nextPageToken: ${jsString(paging.nextPageToken)} };\n` +
    `  yield* $paginate<${sig.itemType}, NonNullable<typeof options>>(options, paging, (pageOptions) => ${call});\n` +
    `}\n`
  );
}

export function operationFunctions(sig: OperationSignature, model: ApiModel, names: Names): string {
  return callFunction(sig, model, names) + (sig.iterator !== undefined ? `\n${iteratorFunction(sig)}` : '');
}
