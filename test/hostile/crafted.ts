// Crafted hostile OpenAPI documents, built in the tests: names, paths, descriptions, enum values, defaults,
// examples, patterns and server URLs full of quotes, backticks, `*/`, `${...}`, `</script>`, U+2028/U+2029,
// `../`, NUL, `__proto__`, `constructor`, reserved words and non-Latin scripts. Every piece of code a payload
// carries would set `globalThis.__pwned`, so "no spec code ran" is one check.
//
// Component names (schemas, security schemes) are limited by the OpenAPI schema to `[A-Za-z0-9._-]`, and the
// documents must pass validation to reach the generator, so those use the hostile names that alphabet allows.

export const MARKER = '__pwned';

/** Strings that would run, break out of a literal or comment, or mislead, if pasted into code unescaped. */
export const PAYLOADS: readonly string[] = [
  `"); globalThis.${MARKER} = "dq"; ("`,
  `'); globalThis.${MARKER} = 'sq'; ('`,
  '`); globalThis.' + MARKER + ' = `bt`; (`',
  '${globalThis.' + MARKER + ' = "tpl"}',
  `*/ globalThis.${MARKER} = "cm"; /*`,
  `</script><script>globalThis.${MARKER} = "html"</script>`,
  `\\"; globalThis.${MARKER} = "bs"; //`,
  `line\u2028separator\u2029paragraph globalThis.${MARKER} = "ls"`,
  '\r\nglobalThis.' + MARKER + ' = "crlf"; //',
  '../../../etc/passwd',
  'nul\u0000byte',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'class',
  'default',
  'delete',
  'enum',
  'await',
  'Ünïcödé',
  '日本語の名前',
  'русский',
  'עברית',
  'العربية',
  '🙂 emoji',
  ' leading and trailing ',
  '1leading digit',
  'a.b-c',
  '',
];

/** Component names the OpenAPI schema accepts (`^[a-zA-Z0-9._-]+$`), chosen to collide with JavaScript. */
export const COMPONENT_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'class', 'default', '1leading', '..', '...', '-', 'a.b-c', 'x--y', 'Object', 'Promise', 'Record', 'ApiError', 'createClient'];

/** Patterns (valid in JavaScript with the `u` flag) made of the characters that break literals. */
export const PATTERNS: readonly string[] = ['^[`"\'*/$\\{\\}<>]*$', '^\\$\\{x\\}\\*/$', '^</script>|\u2028$', '^[\\p{L} ]+$', '^\\.\\./'];

/** Strings to try against the patterns. */
export const PATTERN_CANDIDATES: readonly string[] = ['', '`"\'*/${}<>', '${x}*/', '</script>', '\u2028', 'Ünïcödé 日本語', '../x', 'abc', '..\\x', '<script>'];

/** Define an own property (a literal `{ __proto__: x }` would set the prototype instead). */
function own(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

export type Version = '3.1.0' | '3.0.3';

/** A hostile string with the characters a path template or header name cannot hold removed. */
const pathSafe = (s: string): string => s.replace(/[{}/\u0000?#\r\n]/g, '_');

/**
 * One crafted document. `v30` variants spell nullability, examples and const the 3.0 way. Every enum carries
 * all payloads, every description and default is a payload, every schema name is a hostile component name.
 */
export function craftedDocument(version: Version): Record<string, unknown> {
  const v30 = version.startsWith('3.0');
  const example = (value: unknown): Record<string, unknown> => (v30 ? { example: value } : { examples: [value] });
  const nullable = (type: string): Record<string, unknown> => (v30 ? { type, nullable: true } : { type: [type, 'null'] });
  const ref = (name: string): Record<string, unknown> => ({ $ref: `#/components/schemas/${name}` });
  const description = PAYLOADS.join(' | ');

  const properties = own([
    ...PAYLOADS.map((p, i): [string, unknown] => [p, { type: 'string', enum: [...PAYLOADS], default: PAYLOADS[(i + 1) % PAYLOADS.length], description: p, ...example(p) }]),
    ['pattern0', { type: 'string', pattern: PATTERNS[0] }],
    ['pattern1', { type: 'string', pattern: PATTERNS[1] }],
    ['pattern2', { type: 'string', pattern: PATTERNS[2] }],
    ['pattern3', { type: 'string', pattern: PATTERNS[3] }],
    ['pattern4', { type: 'string', pattern: PATTERNS[4] }],
    ['map', { type: 'object', additionalProperties: { type: 'string', enum: [...PAYLOADS] }, description }],
    ['self', ref('__proto__')],
    ['nullableRef', v30 ? { allOf: [ref('constructor')], nullable: true } : { anyOf: [ref('constructor'), { type: 'null' }] }],
    ['nullableText', { ...nullable('string'), description }],
    ['readOnlyId', { type: 'string', readOnly: true, description }],
    ['writeOnlySecret', { type: 'string', writeOnly: true, description }],
  ]);

  const schemas = own([
    // A recursive object whose property names, enum values, defaults, examples and descriptions are payloads.
    ['__proto__', { type: 'object', description, properties, required: [PAYLOADS[0], '__proto__', 'constructor'], ...example(own([['__proto__', 'class'], ['constructor', 'delete']])) }],
    ['constructor', { type: 'object', description, properties: own([['kind', { type: 'string', enum: ['constructor'] }], ['__proto__', { type: 'string' }]]), required: ['kind'] }],
    ['prototype', { type: 'object', properties: own([['kind', { type: 'string', enum: ['prototype'] }], ['toString', { type: 'integer', default: 0 }]]), required: ['kind'] }],
    // A discriminated union whose mapping keys are payloads.
    [
      'toString',
      {
        oneOf: [ref('constructor'), ref('prototype')],
        discriminator: { propertyName: 'kind', mapping: own([['constructor', '#/components/schemas/constructor'], ['prototype', '#/components/schemas/prototype']]) },
        description,
      },
    ],
    // Named enums: strings, and (3.1) mixed scalars.
    ['hasOwnProperty', { type: 'string', enum: [...PAYLOADS], description, default: PAYLOADS[0] }],
    ['class', v30 ? { type: 'integer', enum: [0, -1, 2147483647] } : { enum: [0, -1, 1.5, true, false, null, '0', 'true', 'null'] }],
    ['default', { type: 'array', items: ref('hasOwnProperty'), description }],
    ['1leading', { type: 'object', additionalProperties: ref('toString') }],
    ['..', { type: 'string', enum: ['../', '..\\', '/etc/passwd'] }],
    ['...', { allOf: [ref('constructor'), { type: 'object', properties: own([['extra', { type: 'string' }]]) }] }],
    ['-', { type: 'string', format: 'date-time', description }],
    ['a.b-c', { type: 'string', enum: ['a.b-c', 'a b c'] }],
    ['x--y', { type: 'object', properties: own([['__proto__', ref('a.b-c')]]) }],
    ['Object', { type: 'object', properties: own([['Object', { type: 'string' }]]) }],
    ['Promise', { type: 'string' }],
    ['Record', { type: 'object', additionalProperties: { type: 'integer' } }],
    ['ApiError', { type: 'object', properties: own([['message', { type: 'string' }]]) }],
    ['createClient', { type: 'object', properties: own([['createClient', { type: 'string', enum: ['createClient'] }]]) }],
  ]);

  const enumParam = (name: string, location: 'query' | 'header' | 'cookie', i: number): Record<string, unknown> => ({
    name,
    in: location,
    description: PAYLOADS[i % PAYLOADS.length],
    schema: { type: 'string', enum: [...PAYLOADS], default: PAYLOADS[i % PAYLOADS.length] },
  });
  // Header names must be HTTP tokens to be sendable; these are tokens that still break naive code.
  const headerNames = ["X-`$x'*|~", 'X-__proto__', 'X-constructor', 'x-$x.^_!#%&+'];
  const weirdPath = `/it's/{we"ird}/\`tick\`/\${x}/*/ space/{__proto__}/{${pathSafe('日本語')}}/${pathSafe(PAYLOADS[5]!)}/${pathSafe(PAYLOADS[7]!)}`;

  const jsonBody = (schema: unknown) => ({
    required: true,
    description,
    content: own([
      ['application/json', { schema, examples: own([['__proto__', { summary: PAYLOADS[0], value: own([['constructor', PAYLOADS[1]]]) }]]) }],
      ['application/x-www-form-urlencoded', { schema: { type: 'object', properties: own(PAYLOADS.map((p): [string, unknown] => [p, { type: 'string' }])) } }],
    ]),
  });
  const okJson = (schema: unknown) => ({
    '200': { description, content: own([['application/json', { schema, example: own([['__proto__', PAYLOADS[2]]]) }]]) },
    default: { description: PAYLOADS[4], content: own([['text/plain', { schema: { type: 'string' } }]]) },
  });

  const paths = own([
    [
      weirdPath,
      {
        description,
        parameters: [
          { name: 'we"ird', in: 'path', required: true, description, schema: { type: 'string' } },
          { name: '__proto__', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'x', in: 'path', required: true, description: 'the {x} of `${x}`', schema: { type: 'string' } },
          { name: pathSafe('日本語'), in: 'path', required: true, schema: { type: 'integer' } },
        ],
        get: {
          operationId: PAYLOADS[0],
          summary: PAYLOADS[4],
          description,
          tags: [PAYLOADS[3]!],
          parameters: [...PAYLOADS.filter((p) => p !== '').map((p, i) => enumParam(p, 'query', i)), ...headerNames.map((h, i) => enumParam(h, 'header', i))],
          responses: okJson(ref('__proto__')),
        },
        post: {
          operationId: PAYLOADS[3],
          tags: [PAYLOADS[5]!],
          description,
          requestBody: jsonBody(ref('__proto__')),
          responses: okJson(ref('toString')),
        },
      },
    ],
    ['/__proto__/constructor/{prototype}', {
      parameters: [{ name: 'prototype', in: 'path', required: true, schema: ref('a.b-c') }],
      put: {
        operationId: 'constructor',
        tags: ['__proto__'],
        requestBody: jsonBody(ref('default')),
        responses: okJson(ref('1leading')),
      },
      delete: { operationId: '__proto__', tags: ['constructor'], responses: { '204': { description: PAYLOADS[6] } }, security: [] },
    }],
    ['/class/{delete}', {
      get: {
        operationId: 'class',
        parameters: [{ name: 'delete', in: 'path', required: true, schema: { type: 'string' } }],
        responses: okJson(ref('class')),
      },
    }],
    ...PAYLOADS.slice(10, 20).map((p, i): [string, unknown] => [
      `/each/${encodeURIComponent(p)}/${i}`,
      { get: { operationId: `each ${p}`, summary: p, tags: [p], responses: okJson(ref(COMPONENT_NAMES[i % COMPONENT_NAMES.length]!)) } },
    ]),
  ]);

  return {
    openapi: version,
    info: { title: PAYLOADS[0], version: PAYLOADS[4], description, 'x-evil': PAYLOADS[3] },
    servers: [
      { url: 'https://h.example/`${x}`*/"\u2028</script>/../..', description },
      { url: "/relative/${x}/'q'" },
      { url: 'https://{host}/v1', variables: { host: { default: 'api.example', enum: ['api.example', '*/`${x}`'] } } },
    ],
    tags: PAYLOADS.slice(0, 6).map((p) => ({ name: p, description })),
    security: [own([['__proto__', []]])],
    paths,
    components: {
      schemas,
      securitySchemes: own([['__proto__', { type: 'apiKey', name: "X-Key'`", in: 'header', description }], ['constructor', { type: 'apiKey', name: '__proto__', in: 'query' }]]),
    },
  };
}
