// The README of a generated client package: install, a complete example that calls one of its own operations,
// configuration (auth for the schemes its spec declares, workspace, retries, timeouts, fetch), error handling, and
// where it came from. The example must compile under `tsc --strict` in a consumer's ESM project
// (test/consumer/readme-snippets.test.ts type-checks it from the packed package).
import type { ApiModel, Operation } from '../../model/ir.js';
import { credentialOptions } from '../client/operation-descriptor.js';
import { errorCodes } from '../client/error-codes-module.js';
import type { Names } from '../naming.js';
import { renderTemplate } from '../templates.js';

/** The example call: the first GET that needs no path parameter, no required query or header and no body. */
function exampleOperation(model: ApiModel): Operation | undefined {
  return model.operations.find(
    (op) =>
      op.method === 'get' &&
      op.parameters.path.length === 0 &&
      !op.parameters.query.some((p) => p.required) &&
      !op.parameters.header.some((p) => p.required) &&
      op.requestBody === undefined &&
      op.security.some((alternative) => alternative.length > 0),
  );
}

/** The `createClient` option line of each credential kind, with the environment variable it reads. */
const CREDENTIAL_LINES: Record<string, string> = {
  apiKey: "apiKey: process.env.API_KEY ?? '',",
  bearerToken: "bearerToken: process.env.API_TOKEN ?? '', // or a function returning a fresh token, called per call",
  basic: "basic: { username: process.env.API_USER ?? '', password: process.env.API_PASSWORD ?? '' },",
};

/** `names`: the model's names as the emitters use them (computing them again took seconds on a 20 MB spec). */
export function clientReadme(model: ApiModel, names: Names, packageName: string, modules: string[]): string {
  const example = exampleOperation(model);
  const credentials = credentialOptions(model);
  const codes = errorCodes(model);
  return renderTemplate('client/README.md.hbs', {
    packageName,
    title: model.title,
    operationCount: model.operations.length,
    schemaCount: Object.keys(model.schemas).length,
    modules,
    specs: model.catalog.map((c) => ({ name: c.name, operations: c.operationIds.length, hash: c.hash.slice(0, 12) })),
    server: model.catalog.flatMap((c) => c.servers)[0] ?? 'https://api.example.com',
    credentialLines: credentials.map((c) => CREDENTIAL_LINES[c]),
    credentialNames: credentials.map((c) => `\`${c}\``).join(', '),
    workspaceHeader: model.scopeHeaders.workspace ?? null,
    example: example === undefined ? null : { group: names.group(example.group), fn: names.operationFunction(example.id), method: example.method.toUpperCase(), path: example.path },
    errorCodes: codes.map((c) => `\`${c}\``).join(', '),
  });
}
