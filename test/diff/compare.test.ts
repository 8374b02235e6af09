// Every class of change, one spec edit each: the class the comparison gives it, and the version bump it makes.
import { describe, expect, test } from 'vitest';
import { bumpFor, compareModels, formatReport, nextVersion, planRelease, type Bump, type Level } from '../../src/diff/index.js';
import { baseSpec, edited, modelOf, type Doc } from './fixture.js';

const petInput = (doc: Doc) => doc.components.schemas.PetInput;
const pet = (doc: Doc) => doc.components.schemas.Pet;

const CASES: [string, { given: (doc: Doc) => void; want: { kind: string; level: Level; bump: Bump } }][] = [
  // breaking
  ['an operation removed', { given: (d) => delete d.paths['/pets'].post, want: { kind: 'api-removed-without-deprecation', level: 'breaking', bump: 'major' } }],
  ['a path removed', { given: (d) => delete d.paths['/pets/{pet_id}'], want: { kind: 'api-removed-without-deprecation', level: 'breaking', bump: 'major' } }],
  ['a method removed (its path stays)', { given: (d) => delete d.paths['/pets'].get, want: { kind: 'api-removed-without-deprecation', level: 'breaking', bump: 'major' } }],
  ['a required parameter added', { given: (d) => d.paths['/pets'].get.parameters.push({ name: 'owner', in: 'query', required: true, schema: { type: 'string' } }), want: { kind: 'new-required-request-parameter', level: 'breaking', bump: 'major' } }],
  ['a parameter removed', { given: (d) => (d.paths['/pets'].get.parameters = []), want: { kind: 'request-parameter-removed', level: 'breaking', bump: 'major' } }],
  ['a parameter became required', { given: (d) => (d.paths['/pets'].get.parameters[0].required = true), want: { kind: 'request-parameter-became-required', level: 'breaking', bump: 'major' } }],
  ['a required request field added', { given: (d) => { petInput(d).properties.owner = { type: 'string' }; petInput(d).required.push('owner'); }, want: { kind: 'request-new-required-property', level: 'breaking', bump: 'major' } }],
  ['a request field removed', { given: (d) => delete petInput(d).properties.tag, want: { kind: 'request-property-removed', level: 'breaking', bump: 'major' } }],
  ['a response field removed', { given: (d) => delete pet(d).properties.age, want: { kind: 'response-property-removed', level: 'breaking', bump: 'major' } }],
  ['a response field renamed', { given: (d) => { pet(d).properties.years = pet(d).properties.age; delete pet(d).properties.age; }, want: { kind: 'response-property-removed', level: 'breaking', bump: 'major' } }],
  ['a response field became optional', { given: (d) => (pet(d).required = ['id', 'kind']), want: { kind: 'response-property-became-optional', level: 'breaking', bump: 'major' } }],
  ['a type changed', { given: (d) => (pet(d).properties.age.type = 'string'), want: { kind: 'response-type-changed', level: 'breaking', bump: 'major' } }],
  ['a request type narrowed', { given: (d) => (d.paths['/pets'].get.parameters[0].schema.type = 'string'), want: { kind: 'request-type-changed', level: 'breaking', bump: 'major' } }],
  ['a response type widened (nullable)', { given: (d) => (pet(d).properties.age.type = ['integer', 'null']), want: { kind: 'response-type-widened', level: 'breaking', bump: 'major' } }],
  ['a request enum narrowed', { given: (d) => (petInput(d).properties.kind.enum = ['cat']), want: { kind: 'request-enum-value-removed', level: 'breaking', bump: 'major' } }],
  ['a request limit narrowed', { given: (d) => (petInput(d).properties.name.maxLength = 20), want: { kind: 'request-max-length-decreased', level: 'breaking', bump: 'major' } }],
  ['a request minimum raised', { given: (d) => (d.paths['/pets'].get.parameters[0].schema.minimum = 5), want: { kind: 'request-minimum-increased', level: 'breaking', bump: 'major' } }],
  ['a request pattern added', { given: (d) => (petInput(d).properties.name.pattern = '^[a-z]+$'), want: { kind: 'request-pattern-added', level: 'breaking', bump: 'major' } }],
  ['a response enum widened', { given: (d) => (pet(d).properties.kind.enum = ['cat', 'dog', 'bird']), want: { kind: 'response-enum-value-added', level: 'breaking', bump: 'major' } }],
  ['security added', { given: (d) => (d.paths['/health'].get.security = [{ ApiKey: [] }]), want: { kind: 'api-security-added', level: 'breaking', bump: 'major' } }],
  ['a success status removed', { given: (d) => { const r = d.paths['/pets'].post.responses; r['200'] = r['201']; delete r['201']; }, want: { kind: 'response-success-status-removed', level: 'breaking', bump: 'major' } }],
  ['a body media type removed', { given: (d) => { const c = d.paths['/pets'].post.requestBody.content; c['application/merge-patch+json'] = c['application/json']; delete c['application/json']; }, want: { kind: 'request-media-type-removed', level: 'breaking', bump: 'major' } }],
  ['an operation id changed', { given: (d) => (d.paths['/pets/{pet_id}'].get.operationId = 'fetchPet'), want: { kind: 'api-operation-id-changed', level: 'breaking', bump: 'major' } }],
  ['a named schema removed', { given: (d) => delete d.components.schemas.Legacy, want: { kind: 'schema-removed', level: 'breaking', bump: 'major' } }],
  ['a security scheme changed', { given: (d) => (d.components.securitySchemes.ApiKey.name = 'X-Key'), want: { kind: 'security-scheme-changed', level: 'breaking', bump: 'major' } }],
  // non-breaking
  ['an operation added', { given: (d) => (d.paths['/pets/{pet_id}'].delete = { operationId: 'deletePet', parameters: [{ name: 'pet_id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '204': { description: 'Gone.' } } }), want: { kind: 'endpoint-added', level: 'non-breaking', bump: 'minor' } }],
  ['an optional parameter added', { given: (d) => d.paths['/pets'].get.parameters.push({ name: 'kind', in: 'query', schema: { type: 'string' } }), want: { kind: 'new-optional-request-parameter', level: 'non-breaking', bump: 'minor' } }],
  ['an optional header added', { given: (d) => d.paths['/pets/{pet_id}'].get.parameters.push({ name: 'X-Trace', in: 'header', required: false, schema: { type: 'string' } }), want: { kind: 'new-optional-request-parameter', level: 'non-breaking', bump: 'minor' } }],
  ['an optional request field added', { given: (d) => (petInput(d).properties.owner = { type: 'string' }), want: { kind: 'request-new-optional-property', level: 'non-breaking', bump: 'minor' } }],
  ['a response field added', { given: (d) => (pet(d).properties.owner = { type: 'string' }), want: { kind: 'response-property-added', level: 'non-breaking', bump: 'minor' } }],
  ['a request limit widened', { given: (d) => (petInput(d).properties.name.maxLength = 100), want: { kind: 'request-max-length-increased', level: 'non-breaking', bump: 'minor' } }],
  ['a request limit removed', { given: (d) => delete d.paths['/pets'].get.parameters[0].schema.maximum, want: { kind: 'request-maximum-removed', level: 'non-breaking', bump: 'minor' } }],
  ['a request enum widened', { given: (d) => (petInput(d).properties.kind.enum = ['cat', 'dog', 'bird']), want: { kind: 'request-enum-value-added', level: 'non-breaking', bump: 'minor' } }],
  ['a response enum narrowed', { given: (d) => (pet(d).properties.kind.enum = ['cat']), want: { kind: 'response-enum-value-removed', level: 'non-breaking', bump: 'minor' } }],
  ['a request field became optional', { given: (d) => (petInput(d).required = ['name']), want: { kind: 'request-property-became-optional', level: 'non-breaking', bump: 'minor' } }],
  ['an operation deprecated', { given: (d) => (d.paths['/pets'].get.deprecated = true), want: { kind: 'endpoint-deprecated', level: 'non-breaking', bump: 'minor' } }],
  ['a field deprecated', { given: (d) => (pet(d).properties.age.deprecated = true), want: { kind: 'response-property-deprecated', level: 'non-breaking', bump: 'minor' } }],
  ['a success status added', { given: (d) => (d.paths['/pets'].post.responses['200'] = { description: 'Already there.' }), want: { kind: 'response-success-status-added', level: 'non-breaking', bump: 'minor' } }],
  ['a named schema added', { given: (d) => (d.components.schemas.Owner = { type: 'object' }), want: { kind: 'schema-added', level: 'non-breaking', bump: 'minor' } }],
  ['a security alternative added', { given: (d) => { d.components.securitySchemes.Bearer = { type: 'http', scheme: 'bearer' }; d.paths['/pets'].get.security = [{ ApiKey: [] }, { Bearer: [] }]; }, want: { kind: 'api-security-alternative-added', level: 'non-breaking', bump: 'minor' } }],
  ['a request field made nullable through oneOf [$ref, null]', { given: (d) => { d.components.schemas.Kind = { type: 'string', enum: ['cat', 'dog'] }; petInput(d).properties.kind = { oneOf: [{ $ref: '#/components/schemas/Kind' }, { type: 'null' }] }; }, want: { kind: 'request-type-widened', level: 'non-breaking', bump: 'minor' } }],
  // description only
  ['an operation description changed', { given: (d) => (d.paths['/pets/{pet_id}'].get.description = 'One pet, by id.'), want: { kind: 'description-changed', level: 'description', bump: 'patch' } }],
  ['an operation summary changed', { given: (d) => (d.paths['/pets'].get.summary = 'Lists pets.'), want: { kind: 'summary-changed', level: 'description', bump: 'patch' } }],
  ['a field description changed', { given: (d) => (pet(d).properties.name.description = 'The name.'), want: { kind: 'description-changed', level: 'description', bump: 'patch' } }],
  ['a response description changed', { given: (d) => (d.paths['/pets/{pet_id}'].get.responses['404'].description = 'Not found.'), want: { kind: 'description-changed', level: 'description', bump: 'patch' } }],
];

describe('compareModels classifies each kind of spec change for a consumer of the client', () => {
  const before = modelOf(baseSpec());

  test.each(CASES)('%s', (_name, { given, want }) => {
    const changes = compareModels(before, modelOf(edited(given)));
    const found = changes.filter((c) => c.kind === want.kind);
    expect(found.length, JSON.stringify(changes, null, 1)).toBeGreaterThan(0);
    expect(found.map((c) => c.level)).toEqual(found.map(() => want.level));
    expect(bumpFor(changes)).toBe(want.bump);
    for (const c of changes) expect(c.pointer).toMatch(/^#\//);
  });

  test('an unchanged spec has no change and no bump', () => {
    const changes = compareModels(before, modelOf(baseSpec()));
    expect(changes).toEqual([]);
    expect(bumpFor(changes)).toBe('none');
  });

  test('rewriting a field as a wrapper around the same schema reports only what changed', () => {
    // `allOf: [$ref]` (to give a $ref a default) and `oneOf: [$ref, null]` (to make it nullable) change no data:
    // the members are compared at the field's place, so nothing is reported as removed or narrowed.
    const kindRef = (d: Doc) => (d.components.schemas.Kind = { type: 'string', enum: ['cat', 'dog'] });
    const wrapped = modelOf(edited((d) => { kindRef(d); petInput(d).properties.kind = { allOf: [{ $ref: '#/components/schemas/Kind' }], default: 'cat' }; }));
    const nullable = modelOf(edited((d) => { kindRef(d); petInput(d).properties.kind = { oneOf: [{ $ref: '#/components/schemas/Kind' }, { type: 'null' }] }; }));
    const plain = modelOf(edited((d) => { kindRef(d); petInput(d).properties.kind = { $ref: '#/components/schemas/Kind' }; }));
    const at = '#/paths/~1pets/post/requestBody/content/application~1json/schema/properties/kind';
    expect(compareModels(wrapped, plain).map((c) => [c.kind, c.pointer])).toEqual([['request-default-changed', `${at}/default`]]);
    expect(compareModels(plain, nullable).map((c) => [c.level, c.kind, c.detail])).toEqual([['non-breaking', 'request-type-widened', 'null allowed']]);
    expect(compareModels(nullable, plain).map((c) => [c.level, c.kind, c.detail])).toEqual([['breaking', 'request-type-narrowed', 'null no longer allowed']]);
    expect(compareModels(before, plain).map((c) => c.kind)).toEqual(['schema-added']);
  });

  test('a change names the operation and the JSON pointer of the place', () => {
    const changes = compareModels(before, modelOf(edited((d) => (petInput(d).properties.name.maxLength = 20))));
    expect(changes).toEqual([{ level: 'breaking', kind: 'request-max-length-decreased', subject: 'createPet', pointer: '#/paths/~1pets/post/requestBody/content/application~1json/schema/properties/name/maxLength', detail: '50 -> 20' }]);
  });
});

describe('versions follow the changes', () => {
  test.each([
    ['1.2.3', 'major', '2.0.0'],
    ['1.2.3', 'minor', '1.3.0'],
    ['1.2.3', 'patch', '1.2.4'],
    ['1.2.3', 'none', '1.2.3'],
    ['0.1.0', 'major', '1.0.0'],
  ] as const)('%s with a %s bump is %s', (version, bump, want) => {
    expect(nextVersion(version, bump)).toBe(want);
  });

  test('a release extends the history; an unchanged model leaves it as it was', () => {
    const before = modelOf(baseSpec());
    const history = { version: '1.4.0', releases: [{ version: '1.4.0', first: false, changes: [] }] };
    const plan = planRelease({ ok: true, file: { ...history, model: before } }, modelOf(edited((d) => delete pet(d).properties.age)));
    expect(plan.bump).toBe('major');
    expect(plan.history.version).toBe('2.0.0');
    expect(plan.history.releases.map((r) => r.version)).toEqual(['2.0.0', '1.4.0']);
    // Pet.age is in three operations' answers: one line each.
    expect(formatReport(plan)[0]).toMatch(/^3 breaking, 0 non-breaking changes .*version 2\.0\.0 \(major\)/);
    expect(formatReport(plan)).toHaveLength(4);
    expect(formatReport(plan)[2]).toMatch(/breaking +getPet +#\/paths\/~1pets~1\{pet_id\}\/get\/responses\/200\/content\/application~1json\/schema\/properties\/age +response-property-removed/);
    const same = planRelease({ ok: true, file: { ...history, model: before } }, modelOf(baseSpec()));
    expect(same.history).toEqual(history);
    expect(same.bump).toBe('none');
  });

  test('without a previous model the run is a first release and says why', () => {
    const plan = planRelease({ ok: false, reason: 'out/.model.json does not exist' }, modelOf(baseSpec()));
    expect(plan.history.version).toBe('0.1.0');
    expect(plan.history.releases).toEqual([{ version: '0.1.0', first: true, changes: [] }]);
    expect(formatReport(plan)).toEqual(['previous model: out/.model.json does not exist; this is a first release (0.1.0)']);
  });
});
