// A hand-written corpus of small multi-file layouts, one JSON Reference resolution rule per case. Each case is a
// folder (file name -> text), the entry document, and what a reader of the bundled document must find: following
// the local `$ref`s from `at` in the bundled document reaches a value equal to `expect` (the value a JSON Reference
// resolver / OpenAPI bundler resolves the same place to).

export interface RefCase {
  rule: string;
  files: Record<string, string>;
  entry: string;
  /** JSON pointer (keys, unescaped) into the bundled document where a reference is used. */
  at: string[];
  expect: unknown;
}

/** A minimal OpenAPI 3.1 document whose one 200 response schema is `schema` (YAML flow text). */
export const api = (schema: string, extra = ''): string => `openapi: 3.1.0
info: { title: T, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: ${schema}
${extra}`;

const SCHEMA_AT = ['paths', '/things', 'get', 'responses', '200', 'content', 'application/json', 'schema'];

export const REF_CASES: RefCase[] = [
  {
    rule: 'a local ref inside an external file refers to that file, not to the root document',
    files: {
      'api.yaml': api("{ $ref: './resources/jobs/models/job.yml#/job' }"),
      'resources/jobs/models/job.yml': 'job:\n  type: object\n  properties:\n    action: { $ref: "#/some_action" }\nsome_action:\n  type: string\n  enum: [run, stop]\n',
    },
    entry: 'api.yaml',
    at: [...SCHEMA_AT, 'properties', 'action'],
    expect: { type: 'string', enum: ['run', 'stop'] },
  },
  {
    rule: 'a relative file reference is resolved against the directory of the file that contains it',
    files: {
      'api.yaml': api("{ $ref: 'models/a/thing.yaml' }"),
      'models/a/thing.yaml': 'type: object\nproperties:\n  owner: { $ref: "../b/owner.yaml" }\n',
      'models/b/owner.yaml': 'type: string\nformat: email\n',
    },
    entry: 'api.yaml',
    at: [...SCHEMA_AT, 'properties', 'owner'],
    expect: { type: 'string', format: 'email' },
  },
  {
    rule: 'any number of indirections across files are followed to the final value',
    files: {
      'api.yaml': api("{ $ref: 'one.yaml#/A' }"),
      'one.yaml': 'A: { $ref: "two.yaml#/B" }\n',
      'two.yaml': 'B: { $ref: "#/C" }\nC: { $ref: "three/three.yaml" }\n',
      'three/three.yaml': 'type: integer\nminimum: 3\n',
    },
    entry: 'api.yaml',
    at: SCHEMA_AT,
    expect: { type: 'integer', minimum: 3 },
  },
  {
    rule: 'a local ref may point into paths, through another ref on the way (allOf member)',
    files: {
      'api.yaml': `openapi: 3.1.0
info: { title: T, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                allOf:
                  - { $ref: '#/components/schemas/Base' }
  /other:
    get:
      operationId: getOther
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Alias' }
components:
  schemas:
    Alias: { $ref: '#/paths/~1things/get/responses/200/content/application~1json/schema/allOf/0/properties/id' }
    Base: { type: object, properties: { id: { type: string, format: uuid } } }
`,
    },
    entry: 'api.yaml',
    at: ['paths', '/other', 'get', 'responses', '200', 'content', 'application/json', 'schema'],
    expect: { type: 'string', format: 'uuid' },
  },
  {
    rule: 'a ref from another file into the root document paths, through a ref, reaches the same place',
    files: {
      'api.yaml': `openapi: 3.1.0
info: { title: T, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: 'schemas.yaml#/List' }
  /other:
    get:
      operationId: getOther
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: 'schemas.yaml#/Item' }
`,
      'schemas.yaml': "List: { type: object, properties: { items: { type: array, items: { type: integer, maximum: 9 } } } }\nItem: { $ref: 'api.yaml#/paths/~1things/get/responses/200/content/application~1json/schema/properties/items/items' }\n",
    },
    entry: 'api.yaml',
    at: ['paths', '/other', 'get', 'responses', '200', 'content', 'application/json', 'schema'],
    expect: { type: 'integer', maximum: 9 },
  },
  {
    rule: 'a URL-encoded pointer is decoded before it is split',
    files: {
      'api.yaml': api("{ $ref: 'defs.yaml#/my%20types/big%7Bnum%7D' }"),
      'defs.yaml': 'my types:\n  big{num}: { type: number, minimum: 100 }\n',
    },
    entry: 'api.yaml',
    at: SCHEMA_AT,
    expect: { type: 'number', minimum: 100 },
  },
  {
    rule: '~1 and ~0 in a pointer stand for / and ~',
    files: {
      'api.yaml': api("{ $ref: 'defs.yaml#/a~1b/c~0d' }"),
      'defs.yaml': "'a/b':\n  'c~d': { type: boolean }\n",
    },
    entry: 'api.yaml',
    at: SCHEMA_AT,
    expect: { type: 'boolean' },
  },
  {
    rule: 'a cycle across files ends in a local ref to the hoisted schema',
    files: {
      'api.yaml': api("{ $ref: 'node.yaml' }"),
      'node.yaml': 'type: object\nproperties:\n  children: { type: array, items: { $ref: "edge.yaml" } }\n',
      'edge.yaml': 'type: object\nproperties:\n  to: { $ref: "node.yaml" }\n',
    },
    entry: 'api.yaml',
    at: [...SCHEMA_AT, 'properties', 'children', 'items', 'properties', 'to', 'properties', 'children', 'type'],
    expect: 'array',
  },
  {
    rule: 'a pointer through a ref of an external file follows that file\'s ref',
    files: {
      'api.yaml': api("{ $ref: 'defs.yaml#/Wrapper/properties/inner' }"),
      'defs.yaml': 'Wrapper: { $ref: "#/Real" }\nReal:\n  type: object\n  properties:\n    inner: { type: string, maxLength: 4 }\n',
    },
    entry: 'api.yaml',
    at: SCHEMA_AT,
    expect: { type: 'string', maxLength: 4 },
  },
  {
    rule: 'a path item from another file keeps its refs relative to that file',
    files: {
      'api.yaml': "openapi: 3.1.0\ninfo: { title: T, version: '1' }\npaths:\n  /things: { $ref: 'paths/things.yaml' }\n",
      'paths/things.yaml': "get:\n  operationId: listThings\n  responses:\n    '200':\n      description: ok\n      content:\n        application/json:\n          schema: { $ref: '../models/thing.yaml#/Thing' }\n",
      'models/thing.yaml': 'Thing: { type: string, minLength: 2 }\n',
    },
    entry: 'api.yaml',
    at: SCHEMA_AT,
    expect: { type: 'string', minLength: 2 },
  },
  {
    rule: 'a pointer through a ref into a third file continues in that file',
    files: {
      'api.yaml': api("{ $ref: 'a.yaml#/Outer/properties/inner/properties/leaf' }"),
      'a.yaml': "Outer:\n  type: object\n  properties:\n    inner: { $ref: 'sub/b.yaml#/Inner' }\n",
      'sub/b.yaml': "Inner:\n  type: object\n  properties:\n    leaf: { $ref: '#/Leaf' }\nLeaf: { type: string, format: date }\n",
    },
    entry: 'api.yaml',
    at: SCHEMA_AT,
    expect: { type: 'string', format: 'date' },
  },
  {
    rule: 'a value reached through a ref into another file keeps that file as the base of its own local refs',
    files: {
      'api.yaml': api("{ $ref: 'a.yaml#/Alias/properties/pair' }"),
      'a.yaml': "Alias: { $ref: 'b.yaml#/Real' }\n",
      'b.yaml': "Real:\n  type: object\n  properties:\n    pair: { type: array, items: { $ref: '#/Item' } }\nItem: { type: integer, multipleOf: 2 }\n",
    },
    entry: 'api.yaml',
    at: [...SCHEMA_AT, 'items'],
    expect: { type: 'integer', multipleOf: 2 },
  },
  {
    rule: 'a reference to the root document from another file is a local ref of the bundle',
    files: {
      'api.yaml': api("{ $ref: 'models/thing.yaml' }", "components:\n  schemas:\n    Id: { type: string, pattern: '^t_' }\n"),
      'models/thing.yaml': "type: object\nproperties:\n  id: { $ref: '../api.yaml#/components/schemas/Id' }\n",
    },
    entry: 'api.yaml',
    at: [...SCHEMA_AT, 'properties', 'id'],
    expect: { type: 'string', pattern: '^t_' },
  },
  {
    rule: 'a ref to the whole of another file (no fragment) is that file',
    files: {
      'api.yaml': api("{ $ref: 'thing.json' }"),
      'thing.json': '{"type":"array","items":{"type":"string"}}',
    },
    entry: 'api.yaml',
    at: SCHEMA_AT,
    expect: { type: 'array', items: { type: 'string' } },
  },
];
