// The TypeScript signature of each operation function, computed once and shared by `operations.ts` (the
// functions) and `client.ts` (the `Client` interface and its methods), so the two can never disagree.
import { tokenPagination } from '../../model/paging.js';
import { jsString, uniqueNames, valueName } from '../../encode/index.js';
import type { ApiModel, Operation, Parameter } from '../../model/ir.js';
import type { Names } from '../naming.js';
import { splitPathTemplate, type PathTemplate } from './path-template.js';

export interface SignatureParam {
  /** Argument name (a code name, never a wire name). */
  name: string;
  type: string;
  optional: boolean;
  description?: string;
}

export interface OperationSignature {
  op: Operation;
  /** Operation function name. */
  fn: string;
  /** Name of the `<fn>All` item iterator, for paginated operations. */
  iterator?: string;
  template: PathTemplate;
  /** Argument names of the path parameters, in path order. */
  pathArgs: string[];
  hasBody: boolean;
  /** Arguments after `config`: path parameters, body, options. */
  params: SignatureParam[];
  /** Resolved type of the call (inside `Promise<...>`). */
  returnType: string;
  /** Item type of the iterator, for paginated operations. */
  itemType?: string;
  /** Names imported from `./types.js`. */
  typeImports: string[];
}

// Names the generated functions use themselves (arguments, locals, the `validators` namespace import).
const TAKEN_ARGUMENTS = ['config', 'body', 'options', 'validators', 'spec', 'paging', 'pageOptions'];

function pathParamsInOrder(op: Operation, template: PathTemplate): Parameter[] {
  const byName = new Map(op.parameters.path.map((p) => [p.name, p]));
  return template.params.map((name) => {
    const param = byName.get(name);
    if (param === undefined) throw new Error(`client: path ${jsString(op.path)} of operation ${jsString(op.id)} uses undeclared parameter ${jsString(name)}`);
    return param;
  });
}

function signature(op: Operation, names: Names, iterator: string | undefined): OperationSignature {
  const template = splitPathTemplate(op.path);
  const pathParams = pathParamsInOrder(op, template);
  const argNames = uniqueNames(template.params, valueName, TAKEN_ARGUMENTS);
  const typeImports: string[] = [];
  const typeOf = (part: 'PathParams' | 'Query' | 'Headers' | 'Body' | 'Response'): string => {
    const name = names.operationType(op.id, part);
    if (!typeImports.includes(name)) typeImports.push(name);
    return name;
  };

  // A name used twice in one template (`/a/{id}/b/{id}`) is one argument.
  const distinct = pathParams.filter((p, i) => pathParams.indexOf(p) === i);
  const params: SignatureParam[] = distinct.map((p) => ({
    name: argNames.get(p.name)!,
    // Indexed by wire name, so the argument has exactly the type the types emitter gives the parameter.
    type: `${typeOf('PathParams')}[${jsString(p.name)}]`,
    optional: false,
    ...(p.description !== undefined ? { description: p.description } : {}),
  }));
  const hasBody = op.requestBody !== undefined;
  if (op.requestBody !== undefined) {
    params.push({
      name: 'body',
      type: typeOf('Body'),
      optional: !op.requestBody.required,
      ...(op.requestBody.description !== undefined ? { description: op.requestBody.description } : {}),
    });
  }
  const query = op.parameters.query.length > 0 ? typeOf('Query') : 'never';
  const headers = op.parameters.header.length > 0 ? typeOf('Headers') : 'never';
  params.push({ name: 'options', type: `CallOptions<${query}, ${headers}>`, optional: true });

  const returnType = typeOf('Response');
  const pagination = tokenPagination(op);
  return {
    op,
    fn: names.operationFunction(op.id),
    ...(iterator !== undefined ? { iterator } : {}),
    template,
    pathArgs: pathParams.map((p) => argNames.get(p.name)!),
    hasBody,
    params,
    returnType,
    ...(pagination !== undefined ? { itemType: `PageItem<${returnType}, ${jsString(pagination.items)}>` } : {}),
    typeImports,
  };
}

export function operationSignatures(model: ApiModel, names: Names): OperationSignature[] {
  // Iterator names are settled by naming.ts with the operation functions.
  return model.operations.map((op) => signature(op, names, names.operationIterator(op.id)));
}

/** `(tagId: T, body: B, options?: O)` */
export function parameterList(sig: OperationSignature, withConfig: boolean): string {
  const params = sig.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`);
  return (withConfig ? ['config: ClientConfig', ...params] : params).join(', ');
}
