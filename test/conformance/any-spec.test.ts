// The conformance suite against the sandbox of a spec without our vocabulary (issue 27): museum's route table,
// documents and suite data are rendered in memory and imported from a scratch folder; the in-process sandbox
// serves that table, and the generic checks run with the credential of museum's scheme (HTTP basic).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceOf, failures, generateFor } from '../../scripts/any-spec-run.js';
import { findOracle } from '../support/oracles.js';

const CORPUS = findOracle('corpus').dir;

describe.skipIf(CORPUS === undefined)('conformance against the sandbox of a spec without our vocabulary', () => {
  it('museum: every generic check that applies passes', async () => {
    const results = await conformanceOf(await generateFor(join(CORPUS!, 'museum', 'openapi.yaml')));
    // Museum lets the client send eventId (format uuid): every create sends a fresh one (fresh-values.ts).
    expect(failures(results)).toEqual([]);
    // The stateful checks ran on the inferred resource: create, read back, list, not found, isolation.
    const ran = new Set(results.filter((r) => r.outcome === 'pass').map((r) => `${r.operation} ${r.check.split(':')[0]}`));
    for (const expected of ['createSpecialEvent records', 'createSpecialEvent values', 'getSpecialEvent not found', 'getSpecialEvent isolation', 'listSpecialEvents auth']) expect(ran).toContain(expected);
    expect(results.filter((r) => r.outcome === 'pass').length).toBeGreaterThan(40);
  }, 300_000);

  it('petstore: integer ids, an api_key header and public operations; every generic check that applies passes', async () => {
    const results = await conformanceOf(await generateFor(join(CORPUS!, 'petstore', 'petstore3-swagger-openapi.yaml')));
    expect(failures(results)).toEqual([]);
    // Records with integer ids (petId, orderId: type integer) were made, read back by path, missed and isolated.
    const ran = new Set(results.filter((r) => r.outcome === 'pass').map((r) => `${r.operation} ${r.check.split(':')[0]}`));
    for (const expected of ['addPet values', 'getPetById happy path', 'getPetById not found', 'getPetById isolation', 'getOrderById happy path', 'deleteOrder auth']) expect(ran).toContain(expected);
  }, 300_000);

  it('twilio-api-v2010: paths with a suffix after the template (`/Calls/{Sid}.json`), nested under the account; 0 failed', async () => {
    const results = await conformanceOf(await generateFor(join(CORPUS!, 'twilio-api-v2010', 'twilio_api_v2010.yaml')));
    expect(failures(results)).toEqual([]);
    expect(results.filter((r) => r.outcome === 'pass').length).toBeGreaterThan(500);
  }, 600_000);

  // The other three public specs, each with 0 failures since the rules 15-26 of docs/x-vocabulary.md: box (lists
  // answered by an allOf of parts, a oneOf of a string and a number), discord (array items in the record fill,
  // filters on fields the server sets) and redocly-cafe (a list envelope with required fields beside its items).
  it.each([
    ['box', join('box', 'openapi.json'), 1000],
    ['discord', join('discord', 'openapi.json'), 1000],
    ['redocly-cafe', join('redocly-cafe', 'openapi', 'openapi.yaml'), 50],
  ])('%s: 0 failed', async (_name, file, passed) => {
    const results = await conformanceOf(await generateFor(join(CORPUS!, file)));
    expect(failures(results)).toEqual([]);
    expect(results.filter((r) => r.outcome === 'pass').length).toBeGreaterThan(passed);
  }, 600_000);
});
