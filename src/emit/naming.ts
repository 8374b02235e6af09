// Code names for everything an emitter declares, computed once per model so that every emitter
// (types, validators, client, ...) refers to the same declaration by the same name.
import { tokenPagination } from '../model/paging.js';
import { typeName, uniqueNames, valueName } from '../encode/index.js';
import type { ApiModel } from '../model/ir.js';

export type OperationPart = 'PathParams' | 'Query' | 'Headers' | 'Body' | 'Response';

export interface Names {
  /** TS type name of a named schema (IR name -> type name). */
  schemaType(irName: string): string;
  /** TS type name of the request (write) view of a named schema whose views differ (`TagInput`). */
  schemaInputType(irName: string): string;
  /** Name of the exported value list of an enum (`workspaceStatusValues`); `property` for an inline enum of a property. */
  enumValues(irName: string, property?: string): string;
  /** Name of the validator exported for a named schema. */
  schemaValidator(irName: string): string;
  /** Function name of an operation (`updateTag`). */
  operationFunction(operationId: string): string;
  /** TS type name of one part of an operation (`UpdateTagBody`). Response by status: `UpdateTagResponse200`. */
  operationType(operationId: string, part: OperationPart, status?: string): string;
  /**
   * The named schema (IR name) an operation's 2xx union is, when its name is that schema's type name (operation
   * `listTags` answering exactly the schema `ListTagsResponse`): the types emitter declares nothing for it.
   */
  operationResponseSchema(operationId: string): string | undefined;
  /** Validator name for an operation part (`updateTagBodyValidator`, `updateTagResponse200Validator`). */
  operationValidator(operationId: string, part: OperationPart, status?: string): string;
  /** Name of the `<fn>All` item iterator of a paginated operation (`listTagsAll`); undefined when not paginated. */
  operationIterator(operationId: string): string | undefined;
  /** Client group property name (`tags`, `reviewProjects`); never `raw`. */
  group(group: string): string;
  /** Method name of an operation inside its group (the operation function name). */
  groupMethod(operationId: string): string;
}

function statusSuffix(status: string | undefined): string {
  if (status === undefined) return '';
  if (status === 'default') return 'Default';
  // Status codes ('200', '4XX') are already safe identifier tails.
  return /^[0-9][0-9X]{2}$/i.test(status) ? status.toUpperCase() : typeName(status);
}

/**
 * Names the generated modules declare themselves beside the spec-derived ones: validators.d.ts declares these
 * helper types and imports the schema types, so a schema may not take their names.
 */
const VALIDATOR_MODULE_TYPES = ['ValidationError', 'ValidationResult', 'StandardSchemaIssue', 'StandardSchemaResult', 'StandardSchemaProps', 'Validator'];
/** Top-level value names of the client package that operation functions (and their iterators) may not take. */
const OPERATION_MODULE_VALUES = ['createClient', 'ApiError', 'validators'];
/** `client.raw` is the client's config; a group may not take its name. */
const CLIENT_MEMBERS = ['raw'];

/**
 * The named schema (IR name) an operation's 2xx answer is, when it has exactly one 2xx response and every media
 * type of it is a bare reference to that schema; else undefined.
 */
function soleSuccessSchema(op: ApiModel['operations'][number]): string | undefined {
  const success = op.responses.filter((r) => /^2/.test(r.status));
  if (success.length !== 1 || success[0]!.content.length === 0) return undefined;
  const refs = new Set(
    success[0]!.content.map((c) => {
      const schema = c.schema;
      const ref = typeof schema === 'object' && Object.keys(schema).length === 1 ? schema['$ref'] : undefined;
      return typeof ref === 'string' && ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined;
    }),
  );
  const [only] = refs;
  return refs.size === 1 && only !== undefined ? only : undefined;
}

/**
 * One namespace of one generated module: each claim gets a name no earlier claim has, by appending a
 * numeric suffix before `tail` (`fooBody` + `Validator` -> `fooBodyValidator`, then `fooBody2Validator`).
 * Claims are made in a fixed order, so the names are deterministic.
 */
class Namespace {
  private readonly used: Set<string>;
  constructor(reserved: Iterable<string> = []) {
    this.used = new Set(reserved);
  }
  claim(stem: string, tail = ''): string {
    let name = `${stem}${tail}`;
    for (let n = 2; this.used.has(name); n++) name = `${stem}${n}${tail}`;
    this.used.add(name);
    return name;
  }
  has(name: string): boolean {
    return this.used.has(name);
  }
  take(name: string): void {
    this.used.add(name);
  }
}

/**
 * Every name the emitters declare, settled here once per model, before any emitter runs: within each module's
 * namespace (types; enum value lists; validators; operation functions and iterators; client groups) no two
 * declarations share a name, whatever the spec's schema names, operation ids and tags (case, separators,
 * reserved words, or a derived name meeting a schema's, such as operation `foo` + `Body` and schema `FooBody`).
 */
export function buildNames(model: ApiModel): Names {
  const schemaNames = Object.keys(model.schemas).sort();
  const schemaTypes = uniqueNames(schemaNames, typeName, VALIDATOR_MODULE_TYPES);
  // The types module's namespace: the spec's schema names first, then every derived name (stem + tail) in a
  // fixed order; a derived name that meets an earlier one is numbered between stem and tail (`Tag2Input`).
  const types = new Namespace([...VALIDATOR_MODULE_TYPES, ...schemaTypes.values()]);
  const inputTypes = new Map<string, string>();
  for (const name of schemaNames) inputTypes.set(name, types.claim(schemaTypes.get(name)!, 'Input'));
  const enumKeys: string[] = [];
  // Only actual enums reserve a value-list name: a named enum schema, or an inline enum property.
  const isEnum = (node: unknown): boolean => node !== null && typeof node === 'object' && Array.isArray((node as { enum?: unknown }).enum);
  for (const name of schemaNames) {
    const schema = model.schemas[name]!.schema;
    if (isEnum(schema)) enumKeys.push(name);
    const props = typeof schema === 'object' && schema.properties && typeof schema.properties === 'object' && !Array.isArray(schema.properties) ? schema.properties : {};
    for (const [prop, sub] of Object.entries(props)) if (isEnum(sub)) enumKeys.push(`${name}\u0000${prop}`);
  }
  const enumNames = uniqueNames(enumKeys, (key) => {
    const [schema, prop] = key.split('\u0000');
    return valueName(`${schemaTypes.get(schema!)} ${prop ?? ''} values`);
  }, ['createClient', 'ApiError']);
  const opIds = model.operations.map((o) => o.id);
  // Operation types must not collide with schema types: operation ids get their own unique base names.
  const opTypeBases = uniqueNames(opIds, typeName, []);
  const opFunctions = uniqueNames(opIds, valueName, OPERATION_MODULE_VALUES);
  // A group named like a client member gets an underscore (`raw_`), as reserved words do.
  const groups = uniqueNames([...new Set(model.operations.map((o) => o.group))].sort(), (g) => (CLIENT_MEMBERS.includes(valueName(g)) ? `${valueName(g)}_` : valueName(g)), CLIENT_MEMBERS);

  // Every part name of every operation, computed eagerly in model order so the result never depends on
  // which emitter asks first. The 2xx union that is exactly the schema of its name takes that name; any other
  // clash is numbered between the operation's stem and the part (`Foo2Body`).
  const partNames = new Map<string, string>();
  const responseSchemas = new Map<string, string>();
  const partKey = (id: string, part: OperationPart, status?: string): string => `${id}\u0000${part}\u0000${status ?? ''}`;
  const schemaByType = new Map([...schemaTypes].map(([irName, type]) => [type, irName]));
  for (const op of model.operations) {
    const base = opTypeBases.get(op.id)!;
    const parts: [OperationPart, string | undefined][] = [['PathParams', undefined], ['Query', undefined], ['Headers', undefined], ['Body', undefined], ['Response', undefined]];
    for (const r of op.responses) parts.push(['Response', r.status]);
    for (const [part, status] of parts) {
      const tail = `${part}${statusSuffix(status)}`;
      const same = part === 'Response' && status === undefined ? soleSuccessSchema(op) : undefined;
      if (same !== undefined && schemaByType.get(`${base}${tail}`) === same) {
        partNames.set(partKey(op.id, part, status), `${base}${tail}`);
        responseSchemas.set(op.id, same);
        continue;
      }
      partNames.set(partKey(op.id, part, status), types.claim(base, tail));
    }
  }

  // Validators live in one module: two type names that differ only in case or separators (`FooBody` and
  // `Foo_Body`) would give the same camelCase name, so each validator claims its own.
  const validators = new Namespace();
  const schemaValidators = new Map<string, string>();
  for (const name of schemaNames) schemaValidators.set(name, validators.claim(valueName(schemaTypes.get(name)!), 'Validator'));
  const partValidators = new Map<string, string>();
  for (const [key, type] of partNames) partValidators.set(key, validators.claim(valueName(type), 'Validator'));

  // Iterators (`listTagsAll`) share the operation functions' module: an operation may be called `listTagsAll`.
  const operationValues = new Namespace([...OPERATION_MODULE_VALUES, ...opFunctions.values()]);
  const iterators = new Map<string, string>();
  for (const op of model.operations) {
    if (tokenPagination(op) === undefined) continue;
    iterators.set(op.id, operationValues.claim(opFunctions.get(op.id)!, 'All'));
  }

  return {
    schemaType(irName) {
      const name = schemaTypes.get(irName);
      if (name === undefined) throw new Error(`naming: unknown schema ${irName}`);
      return name;
    },
    schemaInputType(irName) {
      const name = inputTypes.get(irName);
      if (name === undefined) throw new Error(`naming: unknown schema ${irName}`);
      return name;
    },
    enumValues(irName, property) {
      const name = enumNames.get(property === undefined ? irName : `${irName}\u0000${property}`);
      if (name === undefined) throw new Error(`naming: unknown enum ${irName}.${property ?? ''}`);
      return name;
    },
    schemaValidator(irName) {
      const name = schemaValidators.get(irName);
      if (name === undefined) throw new Error(`naming: unknown schema ${irName}`);
      return name;
    },
    operationFunction(operationId) {
      const name = opFunctions.get(operationId);
      if (name === undefined) throw new Error(`naming: unknown operation ${operationId}`);
      return name;
    },
    operationType(operationId, part, status) {
      const name = partNames.get(partKey(operationId, part, status));
      if (name === undefined) throw new Error(`naming: no ${part}${status ?? ''} for operation ${operationId}`);
      return name;
    },
    operationValidator(operationId, part, status) {
      const name = partValidators.get(partKey(operationId, part, status));
      if (name === undefined) throw new Error(`naming: no ${part}${status ?? ''} for operation ${operationId}`);
      return name;
    },
    operationResponseSchema(operationId) {
      return responseSchemas.get(operationId);
    },
    operationIterator(operationId) {
      return iterators.get(operationId);
    },
    group(group) {
      return groups.get(group) ?? valueName(group);
    },
    groupMethod(operationId) {
      return this.operationFunction(operationId);
    },
  };
}
