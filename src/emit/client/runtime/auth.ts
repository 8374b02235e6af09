// Authentication: which credential options a client takes, the check that none is given that no scheme of the
// API uses (a credential must never be dropped silently), resolving credentials once per call (a function is
// called then, so tokens can be refreshed), choosing an operation's security alternative and placing it on the
// request (header, query, cookie, `Authorization`).
import type { AuthSpec, BasicCredentials, ClientConfig, ClientOptions, Credential, CredentialName } from './types.js';

/** Credentials as strings, for one call. */
export interface ResolvedCredentials {
  readonly apiKey?: string | undefined;
  readonly bearerToken?: string | undefined;
  readonly basic?: BasicCredentials | undefined;
}

const CREDENTIAL_NAMES: readonly CredentialName[] = ['apiKey', 'bearerToken', 'basic'];

/** The credential option an AuthSpec takes its secret from. */
function credentialOf(spec: AuthSpec): CredentialName {
  return spec.type === 'apiKey' ? 'apiKey' : spec.type === 'bearer' ? 'bearerToken' : 'basic';
}

/**
 * Refuses a credential option that no security scheme of the API uses (`accepted` lists the ones it does), so
 * a client set up with the wrong kind of credential fails at once with the reason instead of sending requests
 * without it. Only the option's name is quoted, never its value.
 */
export function checkCredentialOptions(options: ClientOptions, accepted: readonly CredentialName[] | undefined): void {
  if (accepted === undefined) return;
  for (const name of CREDENTIAL_NAMES) {
    if (options[name] === undefined || accepted.includes(name)) continue;
    const usable = accepted.length === 0 ? 'this API declares no security scheme a client option serves' : `its schemes take ${accepted.join(', ')}`;
    throw new TypeError(`createClient: the option ${name} is not used by any security scheme of this API (${usable})`);
  }
}

async function resolve(credential: Credential | undefined): Promise<string | undefined> {
  if (credential === undefined) return undefined;
  const value = typeof credential === 'function' ? await credential() : credential;
  if (typeof value !== 'string') throw new TypeError('a credential function must return a string');
  return value === '' ? undefined : value;
}

/** The config's credentials as strings; credential functions are called here, once per call. */
export async function resolveCredentials(config: ClientConfig): Promise<ResolvedCredentials> {
  const [apiKey, bearerToken] = await Promise.all([resolve(config.apiKey), resolve(config.bearerToken)]);
  return { apiKey, bearerToken, basic: config.basic };
}

function has(credentials: ResolvedCredentials, spec: AuthSpec): boolean {
  return credentials[credentialOf(spec)] !== undefined;
}

/**
 * The schemes to apply: the first security alternative (in spec order) that needs at least one credential and
 * whose every credential the client has; none when no alternative can be satisfied (optional auth, or a client
 * without the credential: the server then answers as it does to an anonymous call).
 */
export function chooseAuth(alternatives: readonly (readonly AuthSpec[])[], credentials: ResolvedCredentials): readonly AuthSpec[] {
  return alternatives.find((alternative) => alternative.length > 0 && alternative.every((spec) => has(credentials, spec))) ?? [];
}

/** `key=value` query pairs (encoded) of the chosen apiKey schemes placed in the query. */
export function authQueryPairs(schemes: readonly AuthSpec[], credentials: ResolvedCredentials): string[] {
  const pairs: string[] = [];
  for (const spec of schemes) {
    if (spec.type === 'apiKey' && spec.in === 'query' && credentials.apiKey !== undefined) {
      pairs.push(`${encodeURIComponent(spec.name)}=${encodeURIComponent(credentials.apiKey)}`);
    }
  }
  return pairs;
}

/** The names of the query parameters that carry a key (their values are hidden in error messages). */
export function authQueryNames(schemes: readonly AuthSpec[]): string[] {
  return schemes.flatMap((spec) => (spec.type === 'apiKey' && spec.in === 'query' ? [spec.name] : []));
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function basicValue(basic: BasicCredentials): string {
  return `Basic ${base64(`${basic.username}:${basic.password}`)}`;
}

/** Sets the chosen schemes' headers and cookies. */
export function applyAuthHeaders(headers: Headers, schemes: readonly AuthSpec[], credentials: ResolvedCredentials): void {
  const cookies: string[] = [];
  for (const spec of schemes) {
    if (spec.type === 'apiKey' && credentials.apiKey !== undefined) {
      if (spec.in === 'header') headers.set(spec.name, credentials.apiKey);
      else if (spec.in === 'cookie') cookies.push(`${spec.name}=${encodeURIComponent(credentials.apiKey)}`);
    } else if (spec.type === 'bearer' && credentials.bearerToken !== undefined) {
      headers.set('Authorization', `Bearer ${credentials.bearerToken}`);
    } else if (spec.type === 'basic' && credentials.basic !== undefined) {
      headers.set('Authorization', basicValue(credentials.basic));
    }
  }
  if (cookies.length > 0) headers.set('Cookie', cookies.join('; '));
}

/** Every secret text of the call's credentials, for redaction (the basic password, and the header value). */
export function secretsOf(credentials: ResolvedCredentials): string[] {
  const out: string[] = [];
  if (credentials.apiKey !== undefined) out.push(credentials.apiKey);
  if (credentials.bearerToken !== undefined) out.push(credentials.bearerToken);
  if (credentials.basic !== undefined) {
    if (credentials.basic.password !== '') out.push(credentials.basic.password);
    out.push(basicValue(credentials.basic).slice('Basic '.length));
  }
  return out;
}
