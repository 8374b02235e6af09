// The `OperationSpec` value of one operation: the wire facts the runtime needs (method, path pieces, parameter
// names and styles, auth placement, media types, response validators). Every spec string is written with
// `jsString`/`propertyKey`, and every validator is reached with `propertyAccess`.
import { jsString, propertyAccess, propertyKey } from '../../encode/index.js';
import type { ApiModel, MediaContent, Operation, Parameter } from '../../model/ir.js';
import type { Names } from '../naming.js';
import type { OperationSignature } from './signature.js';

function isJson(media: MediaContent): boolean {
  const essence = media.mediaType.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || essence.endsWith('+json');
}

function paramSpecs(params: Parameter[]): string {
  return `[${params.map((p) => `{ name: ${jsString(p.name)}, style: ${jsString(p.style)}, explode: ${p.explode} }`).join(', ')}]`;
}

/**
 * Where the API key goes: the first security alternative made only of apiKey schemes. `security: []` (or an
 * alternative that is empty, i.e. optional auth, coming first) sends no key.
 */
function authSpecs(op: Operation, model: ApiModel): string {
  for (const alternative of op.security) {
    if (alternative.length === 0) return '[]';
    const schemes = alternative.map((name) => (Object.prototype.hasOwnProperty.call(model.securitySchemes, name) ? model.securitySchemes[name] : undefined));
    if (schemes.every((s) => s?.type === 'apiKey')) {
      return `[${schemes.map((s) => (s?.type === 'apiKey' ? `{ in: ${jsString(s.in)}, name: ${jsString(s.name)} }` : '')).join(', ')}]`;
    }
  }
  return '[]';
}

function isSuccess(status: string): boolean {
  return /^2(\d\d|XX)$/i.test(status);
}

/** The default Accept: the 2xx media type when there is exactly one; otherwise the server's default applies. */
function acceptOf(op: Operation): string | undefined {
  const types = new Set(op.responses.filter((r) => isSuccess(r.status)).flatMap((r) => r.content.map((c) => c.mediaType)));
  return types.size === 1 ? [...types][0] : undefined;
}

function responseSpecs(op: Operation, names: Names): string {
  const entries = op.responses
    .filter((r) => isSuccess(r.status))
    .map((r) => {
      const validator = r.content.length > 0 ? `validator: ${propertyAccess('validators', names.operationValidator(op.id, 'Response', r.status))}, ` : '';
      const jsonOnly = r.content.length > 0 && r.content.every(isJson);
      return `${propertyKey(r.status.toUpperCase())}: { ${validator}jsonOnly: ${jsonOnly} }`;
    });
  return `{ ${entries.join(', ')} }`;
}

/** Whether the generated operation references the validators module. */
export function usesValidators(op: Operation): boolean {
  return op.responses.some((r) => isSuccess(r.status) && r.content.length > 0);
}

export function operationDescriptor(sig: OperationSignature, model: ApiModel, names: Names): string {
  const op = sig.op;
  const lines = [
    `id: ${jsString(op.id)}`,
    `method: ${jsString(op.method.toUpperCase())}`,
    `path: [${sig.template.literals.map(jsString).join(', ')}]`,
    `pathParams: [${sig.template.params.map(jsString).join(', ')}]`,
    `query: ${paramSpecs(op.parameters.query)}`,
    `headers: ${paramSpecs(op.parameters.header)}`,
    `auth: ${authSpecs(op, model)}`,
  ];
  const workspace = model.scopeHeaders.workspace;
  if (workspace !== undefined) {
    // The client's default workspace goes on every authenticated operation (the seed: the header "scopes an
    // operation"), and on any operation that declares the header; public operations have no workspace.
    const declares = op.parameters.header.some((p) => p.scope === 'workspace' || p.name.toLowerCase() === workspace.toLowerCase());
    const authenticated = op.security.some((alternative) => alternative.length > 0);
    lines.push(`workspaceHeader: ${jsString(workspace)}`, `workspaceDefault: ${declares || authenticated}`);
  }
  const requestMedia = op.requestBody?.content[0]?.mediaType;
  if (requestMedia !== undefined) lines.push(`requestMediaType: ${jsString(requestMedia)}`);
  const accept = acceptOf(op);
  if (accept !== undefined) lines.push(`accept: ${jsString(accept)}`);
  lines.push(`responses: ${responseSpecs(op, names)}`);
  return `{\n${lines.map((l) => `    ${l},`).join('\n')}\n  }`;
}
