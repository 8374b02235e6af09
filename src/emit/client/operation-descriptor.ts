// The `OperationSpec` value of one operation: the wire facts the runtime needs (method, path pieces, parameter
// names and styles, security alternatives, media types, response validators). Every spec string is written with
// `jsString`/`propertyKey`, and every validator is reached with `propertyAccess`.
import { jsString, propertyAccess, propertyKey } from '../../encode/index.js';
import type { ApiModel, MediaContent, Operation, Parameter, SecurityScheme } from '../../model/ir.js';
import type { Names } from '../naming.js';
import type { OperationSignature } from './signature.js';

function isJson(media: MediaContent): boolean {
  const essence = media.mediaType.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || essence.endsWith('+json');
}

function paramSpecs(params: Parameter[]): string {
  return `[${params.map((p) => `{ name: ${jsString(p.name)}, style: ${jsString(p.style)}, explode: ${p.explode} }`).join(', ')}]`;
}

type CredentialOption = 'apiKey' | 'bearerToken' | 'basic';

function schemeNamed(model: ApiModel, name: string): SecurityScheme | undefined {
  return Object.prototype.hasOwnProperty.call(model.securitySchemes, name) ? model.securitySchemes[name] : undefined;
}

/**
 * The client option that serves a scheme: API keys (header, query, cookie); a bearer token for HTTP bearer,
 * OAuth2 and OpenID Connect (the token is obtained outside the client); basic. None for mutualTLS (a `fetch`
 * with a client certificate does that) or another HTTP scheme.
 */
function credentialOf(scheme: SecurityScheme | undefined): CredentialOption | undefined {
  if (scheme === undefined) return undefined;
  if (scheme.type === 'apiKey') return 'apiKey';
  if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return 'bearerToken';
  if (scheme.type !== 'http') return undefined;
  const kind = scheme.scheme.toLowerCase();
  return kind === 'bearer' ? 'bearerToken' : kind === 'basic' ? 'basic' : undefined;
}

/** How the runtime applies one security scheme (`AuthSpec`); undefined for one no client option serves. */
function authSpec(scheme: SecurityScheme | undefined): string | undefined {
  const credential = credentialOf(scheme);
  if (scheme?.type === 'apiKey') return `{ type: 'apiKey', in: ${jsString(scheme.in)}, name: ${jsString(scheme.name)} }`;
  if (credential === 'bearerToken') return `{ type: 'bearer' }`;
  if (credential === 'basic') return `{ type: 'basic' }`;
  return undefined;
}

/**
 * The operation's security alternatives in spec order (`security: []` gives none; an empty alternative,
 * optional auth, stays empty). An alternative with a scheme the client cannot apply (mutualTLS, an HTTP scheme
 * other than bearer and basic) is left out: the runtime could never satisfy it.
 */
function authSpecs(op: Operation, model: ApiModel): string {
  const alternatives: string[] = [];
  for (const alternative of op.security) {
    const specs = alternative.map((name) => authSpec(schemeNamed(model, name)));
    if (specs.every((s) => s !== undefined)) alternatives.push(`[${specs.join(', ')}]`);
  }
  return `[${alternatives.join(', ')}]`;
}

/** The credential options (`apiKey`, `bearerToken`, `basic`) the operations' security schemes take, sorted. */
export function credentialOptions(model: ApiModel): CredentialOption[] {
  const used = new Set<CredentialOption>();
  for (const op of model.operations) {
    for (const name of op.security.flat()) {
      const credential = credentialOf(schemeNamed(model, name));
      if (credential !== undefined) used.add(credential);
    }
  }
  return [...used].sort();
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
