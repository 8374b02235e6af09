// Reading the answer: a success body decoded (and validated on request), an ApiError built from an error answer,
// and every text echoed back redacted of the API key.
import type { ClientConfig, ErrorDetail, OperationSpec, ResponseSpec } from './types.js';
import { API_ERROR_CODES, type ApiErrorCode } from './error-codes.js';
import { ApiError, ResponseValidationError } from './errors.js';
import { isBinaryMedia, isJsonMedia, mediaEssence } from './build.js';
import { ownEntries, ownValue } from './own.js';

export type Redact = (text: string) => string;

/** Replaces the call's secrets (raw and URL-encoded) in any text echoed back to the caller. */
export function redactor(secretTexts: readonly string[]): Redact {
  const secrets = [...new Set(secretTexts.filter((s) => s !== '').flatMap((s) => [s, encodeURIComponent(s)]))].sort((a, b) => b.length - a.length);
  return (text) => secrets.reduce((out, secret) => out.split(secret).join('[REDACTED]'), text);
}

function redactValue(value: unknown, redact: Redact, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of ownEntries(value)) {
    Object.defineProperty(out, redact(k), { value: redactValue(v, redact, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export async function readSuccess(config: ClientConfig, op: OperationSpec, response: Response, redact: Redact): Promise<unknown> {
  const status = response.status;
  let value: unknown;
  let parsedJson = false;
  const essence = mediaEssence(response.headers.get('content-type'));
  if (op.method === 'HEAD' || status === 204 || status === 205) value = undefined;
  else if (isBinaryMedia(essence)) value = await response.blob();
  else {
    const text = await response.text();
    if (text === '') value = undefined;
    else if (isJsonMedia(essence)) {
      try {
        value = JSON.parse(text);
        parsedJson = true;
      } catch {
        throw new ApiError({
          message: redact(`HTTP ${status}: response is not valid JSON: ${snippet(text, redact)}`),
          status,
          code: 'INVALID_RESPONSE',
          requestId: response.headers.get('x-request-id') ?? undefined,
          body: redact(text),
          operationId: op.id,
        });
      }
    } else value = text;
  }
  if (config.validateResponses) {
    const spec = ownValue(op.responses, String(status)) ?? ownValue(op.responses, `${String(status)[0]}XX`) ?? ownValue(op.responses, 'default');
    const validator = (spec as ResponseSpec | undefined)?.validator;
    if (validator !== undefined && (parsedJson || (spec as ResponseSpec).jsonOnly)) {
      const result = validator.validate(value);
      if (!result.ok) {
        const details = result.errors.map((e) => ({ field: e.field === null ? null : redact(e.field), description: redact(e.description) }));
        const first = details[0];
        throw new ResponseValidationError({
          message: `HTTP ${status}: response does not match the schema of ${op.id}` + (first ? `: ${first.field ?? '(body)'}: ${first.description}` : ''),
          status,
          code: 'RESPONSE_VALIDATION',
          details,
          requestId: response.headers.get('x-request-id') ?? undefined,
          body: redactValue(value, redact),
          operationId: op.id,
        });
      }
    }
  }
  return value;
}

/** The first 200 characters of a body, whitespace collapsed, after redaction (so a cut can't expose part of a key). */
function snippet(text: string, redact: Redact): string {
  return redact(text).replace(/\s+/g, ' ').trim().slice(0, 200);
}

function asDetails(value: unknown, redact: Redact): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((d): d is object => typeof d === 'object' && d !== null)
    .map((d) => {
      const field = ownValue(d, 'field');
      const description = ownValue(d, 'description');
      return {
        field: typeof field === 'string' ? redact(field) : null,
        description: typeof description === 'string' ? redact(description) : '',
      };
    });
}

/** Whether the spec lists the code (any code is, when the spec lists none). */
function isApiErrorCode(code: string): code is ApiErrorCode {
  return API_ERROR_CODES === undefined || API_ERROR_CODES.includes(code);
}

/** An ApiError for a non-2xx answer: the error envelope when present, else a message from whatever came back. */
export async function errorFromResponse(op: OperationSpec, response: Response, redact: Redact): Promise<ApiError> {
  const status = response.status;
  const requestId = response.headers.get('x-request-id') ?? undefined;
  let text = '';
  try {
    text = await response.text();
  } catch {
    // Body unreadable: fall through with an empty text.
  }
  let parsed: unknown;
  let isJson = false;
  if (/^\s*[[{"]/.test(text)) {
    try {
      parsed = JSON.parse(text);
      isJson = true;
    } catch {
      // Not JSON after all (HTML, text).
    }
  }
  const body = isJson ? redactValue(parsed, redact) : text === '' ? undefined : redact(text);
  const envelope = ownValue(parsed, 'error');
  const code = ownValue(envelope, 'code');
  if (typeof code === 'string') {
    const message = ownValue(envelope, 'message');
    // `code` is typed as the spec's codes: one the spec does not list is UNKNOWN here (the body keeps it).
    const shown = redact(code);
    return new ApiError({
      message: redact(typeof message === 'string' && message !== '' ? message : `HTTP ${status} ${code}`),
      status,
      code: isApiErrorCode(shown) ? shown : 'UNKNOWN',
      details: asDetails(ownValue(envelope, 'details'), redact),
      requestId,
      body,
      operationId: op.id,
    });
  }
  // Not the envelope: `{ message }` (gateways), `{ error: "text" }`, HTML, plain text or nothing.
  const loose = ownValue(parsed, 'message') ?? (typeof envelope === 'string' ? envelope : undefined);
  const summary = typeof loose === 'string' ? snippet(loose, redact) : snippet(text, redact);
  const fallback = response.statusText ? `HTTP ${status} ${response.statusText}` : `HTTP ${status}`;
  return new ApiError({
    message: summary === '' ? redact(`${fallback} (empty body)`) : `HTTP ${status}: ${summary}`,
    status,
    code: 'UNKNOWN',
    requestId,
    body,
    operationId: op.id,
  });
}
