// The route-table contract (src/contracts/route-table.ts) is the one definition of the rows the emitter writes and
// the engine reads. The generated routes module declares its data with the contract's types (no casts), so it
// type-checks against the contract shipped beside it, and drift between the two, on either side, is a diagnostic.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNames } from '../../src/emit/naming.js';
import { emitServer } from '../../src/emit/server/emit-server.js';
import { loadSpecs } from '../../src/load/index.js';
import { buildModel } from '../../src/model/index.js';
import { EVENT_NAMES, RULE_NAMES } from '../../src/sandbox/rules/names.js';
import { typecheck } from '../support/typecheck.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

let dir: string;
let contract: string;
let routes: string;

/** Writes the two sandbox modules (client declarations beside them, as in generated/) and type-checks routes.ts. */
function check(name: string, files: { contract: string; routes: string }): string[] {
  const root = join(dir, name);
  mkdirSync(join(root, 'sandbox'), { recursive: true });
  mkdirSync(join(root, 'client'), { recursive: true });
  // The validators the routes reference, as the committed client package declares them (kept fresh by --check).
  for (const file of ['validators.d.ts', 'types.d.ts']) copyFileSync(join(REPO, 'generated', 'client', file), join(root, 'client', file));
  writeFileSync(join(root, 'sandbox', 'route-table.ts'), files.contract);
  writeFileSync(join(root, 'sandbox', 'routes.ts'), files.routes);
  return typecheck([join(root, 'sandbox', 'routes.ts')], { skipLibCheck: true });
}

/** The routes module with its route table cut to the first row (each row is one line), to keep the checks small. */
function firstRouteOnly(text: string): string {
  return text.replace(/(export const routes: readonly Route\[\] = \[\n[^\n]*?)(,\n[^\n]*)*\n\];/, '$1\n];');
}

/** Replaces exactly one occurrence, so a case cannot pass by changing nothing. */
function once(text: string, find: string | RegExp, replace: string): string {
  const next = text.replace(find, replace);
  if (next === text) throw new Error(`nothing to replace: ${String(find)}`);
  return next;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'route-table-contract-'));
  const docs = await loadSpecs(join(REPO, 'spec'), { policy: 'strict' });
  const model = buildModel(docs, { policy: 'strict', known: { rules: new Set(RULE_NAMES), events: new Set(EVENT_NAMES) } });
  const files = emitServer(model, buildNames(model), docs);
  contract = files.find((f) => f.path === 'sandbox/route-table.ts')!.contents;
  routes = files.find((f) => f.path === 'sandbox/routes.ts')!.contents;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('route-table contract', () => {
  it('ships the contract verbatim and types the generated data by it, without casts', () => {
    // The emitted text is exactly the module the emitter and the engine import.
    expect(contract).toBe(readFileSync(join(REPO, 'src', 'contracts', 'route-table.ts'), 'utf8'));
    expect(routes).toContain(`from './route-table.js'`);
    expect(routes).toMatch(/export const routes: readonly Route\[\] = \[/);
    expect(routes).toMatch(/export const resources: readonly ResourceRow\[\] = \[/);
    expect(routes).not.toMatch(/\bas (Route|RouteRow|ResourceRow)\b/);
  });

  it('type-checks the route table of spec/ against the contract', () => {
    expect(check('spec', { contract, routes })).toEqual([]);
  });

  const drift: [string, { given: () => { contract: string; routes: string }; want: RegExp }][] = [
    [
      'the contract gains a field the emitter does not write',
      { given: () => ({ contract: once(contract, /(export interface RouteRow \{\n)/, '$1  added: string;\n'), routes: firstRouteOnly(routes) }), want: /Property 'added' is missing/ },
    ],
    [
      'the contract loses a field the emitter writes',
      { given: () => ({ contract: once(contract, /\n  workspaceRequired: boolean;/, ''), routes: firstRouteOnly(routes) }), want: /'workspaceRequired' does not exist in type 'Route'/ },
    ],
    [
      'a route row written without a field',
      { given: () => ({ contract, routes: once(firstRouteOnly(routes), /, errors: \[[^\]]*\]/, '') }), want: /Property 'errors' is missing/ },
    ],
    [
      'a resource row written with a field the contract does not have',
      { given: () => ({ contract, routes: once(firstRouteOnly(routes), /(export const resources: readonly ResourceRow\[\] = \[\{)/, '$1extra: true, ') }), want: /'extra' does not exist in type 'ResourceRow'/ },
    ],
    [
      'a value outside the contract (an id format it does not know)',
      { given: () => ({ contract, routes: once(firstRouteOnly(routes), /idFormat: \{kind: "[a-z]+"/, 'idFormat: {kind: "uuid"') }), want: /"uuid"/ },
    ],
  ];

  it.each(drift)('fails the type check when %s', (_name, { given, want }) => {
    const diagnostics = check(_name.replace(/\W+/g, '-'), given());
    expect(diagnostics.join('\n')).toMatch(want);
  });
});
