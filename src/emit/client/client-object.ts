// `client/client.ts`: `createClient(options)` returns one object per operation group (`client.tags`), whose
// methods are the operation functions with the config bound, and `client.raw` (the config). The `Client`
// interface is spelled out because `isolatedDeclarations` needs an explicit return type.
import { jsString, propertyAccess, propertyKey } from '../../encode/index.js';
import type { ApiModel } from '../../model/ir.js';
import type { Names } from '../naming.js';
import { credentialOptions } from './operation-descriptor.js';
import { operationDoc } from './operation-function.js';
import { parameterList, type OperationSignature } from './signature.js';

interface Group {
  property: string;
  sigs: OperationSignature[];
}

/** Groups in name order (naming.ts keeps group names unique and off `raw`). */
function groupsOf(names: Names, sigs: OperationSignature[]): Group[] {
  const byName = new Map<string, OperationSignature[]>();
  for (const sig of sigs) {
    const property = names.group(sig.op.group);
    byName.set(property, [...(byName.get(property) ?? []), sig]);
  }
  return [...byName.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([property, groupSigs]) => ({ property, sigs: groupSigs }));
}

function methodSignatures(sig: OperationSignature): string[] {
  const out = [`${operationDoc(sig)}${propertyKey(sig.fn)}(${parameterList(sig, false)}): Promise<${sig.returnType}>;`];
  if (sig.iterator !== undefined) {
    out.push(`${operationDoc(sig, ['Iterates the items of every page.'])}${propertyKey(sig.iterator)}(${parameterList(sig, false)}): AsyncGenerator<${sig.itemType}, void, undefined>;`);
  }
  return out;
}

function methodImplementations(sig: OperationSignature): string[] {
  const args = sig.params.map((p) => p.name);
  const bind = (fn: string): string => `${propertyKey(fn)}: (${args.join(', ')}) => ${propertyAccess('$ops', fn)}(${['$config', ...args].join(', ')})`;
  return sig.iterator !== undefined ? [bind(sig.fn), bind(sig.iterator)] : [bind(sig.fn)];
}

const indent = (text: string, by: string): string => text.split('\n').map((l) => (l === '' ? l : by + l)).join('\n');

/**
 * The server URLs the spec documents declare, for `baseUrl`. Upper case: operation names never are, so
 * `export *` in index.ts cannot clash. The base URL stays an explicit choice (where the key is sent).
 */
function serverUrls(model: ApiModel): string {
  const urls = [...new Set(model.catalog.flatMap((entry) => entry.servers))];
  return `/** Server URLs declared by the API description, for \`baseUrl\`. */\nexport const SERVER_URLS: readonly string[] = [${urls.map(jsString).join(', ')}];\n`;
}

export function clientModule(model: ApiModel, names: Names, sigs: OperationSignature[]): string {
  const groups = groupsOf(names, sigs);
  const typeImports = [...new Set(sigs.flatMap((s) => s.typeImports))].sort();
  const paginated = sigs.some((s) => s.iterator !== undefined);
  const runtimeTypes = ['CallOptions', 'ClientConfig', 'ClientOptions', ...(paginated ? ['PageItem'] : [])];
  const header = [
    '// The API client object: operation functions grouped by resource, with the configuration bound.',
    `import { createConfig as $createConfig } from './runtime.js';`,
    `import type { ${runtimeTypes.join(', ')} } from './runtime.js';`,
    ...(typeImports.length > 0 ? [`import type { ${typeImports.join(', ')} } from './types.js';`] : []),
    ...(sigs.length > 0 ? [`import * as $ops from './operations.js';`] : []),
  ].join('\n');

  const members = groups.map(
    (g) => `  readonly ${propertyKey(g.property)}: {\n${indent(g.sigs.flatMap(methodSignatures).join('\n'), '    ')}\n  };`,
  );
  const iface =
    '/** The API client: one property per operation group; `raw` is the config the operation functions take. */\n' +
    `export interface Client {\n  readonly raw: ClientConfig;\n${members.join('\n')}\n}\n`;

  const values = groups.map((g) => `    ${propertyKey(g.property)}: {\n${g.sigs.flatMap(methodImplementations).map((m) => `      ${m},`).join('\n')}\n    },`);
  // The credential options no scheme of this API uses are left out of the parameter's type (an object literal
  // naming one is a type error) and refused at run time by createConfig (for JavaScript callers and casts).
  const accepted = credentialOptions(model);
  const unused = ['apiKey', 'basic', 'bearerToken'].filter((name) => !accepted.includes(name as never));
  const optionsType = unused.length === 0 ? 'ClientOptions' : `Omit<ClientOptions, ${unused.map(jsString).join(' | ')}>`;
  const factory =
    `/**\n * Create a client. Credentials: ${accepted.length === 0 ? 'none (the API declares no security scheme a client option serves)' : accepted.map((c) => `\`${c}\``).join(', ')}.\n` +
    ' * They are kept out of enumerable properties, errors and messages.\n */\n' +
    `export function createClient(options: ${optionsType}): Client {\n` +
    `  const $config = $createConfig(options, [${accepted.map(jsString).join(', ')}]);\n` +
    `  return {\n    raw: $config,\n${values.join('\n')}\n  };\n` +
    '}\n';
  return `${header}\n\n${serverUrls(model)}\n${iface}\n${factory}`;
}
