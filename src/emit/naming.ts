// Code names for everything an emitter declares, computed once per model so that every emitter
// (types, validators, client, ...) refers to the same declaration by the same name.
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
  /** Validator name for an operation part (`updateTagBodyValidator`, `updateTagResponse200Validator`). */
  operationValidator(operationId: string, part: OperationPart, status?: string): string;
  /** Client group property name (`tags`, `reviewProjects`). */
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

export function buildNames(model: ApiModel): Names {
  const schemaNames = Object.keys(model.schemas).sort();
  const schemaTypes = uniqueNames(schemaNames, typeName);
  const taken = new Set(schemaTypes.values());
  const inputTypes = new Map<string, string>();
  for (const name of schemaNames) {
    let input = `${schemaTypes.get(name)}Input`;
    while (taken.has(input)) input = `${input}_`;
    taken.add(input);
    inputTypes.set(name, input);
  }
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
  const opFunctions = uniqueNames(opIds, valueName, ['createClient', 'ApiError', 'validators']);
  const groups = uniqueNames([...new Set(model.operations.map((o) => o.group))].sort(), valueName, []);

  // Every part name of every operation, computed eagerly in model order so the result never depends on
  // which emitter asks first. A clash with a schema type gets a trailing underscore.
  const partNames = new Map<string, string>();
  const partKey = (id: string, part: OperationPart, status?: string): string => `${id}\u0000${part}\u0000${status ?? ''}`;
  for (const op of model.operations) {
    const base = opTypeBases.get(op.id)!;
    const parts: [OperationPart, string | undefined][] = [['PathParams', undefined], ['Query', undefined], ['Headers', undefined], ['Body', undefined], ['Response', undefined]];
    for (const r of op.responses) parts.push(['Response', r.status]);
    for (const [part, status] of parts) {
      let name = `${base}${part}${statusSuffix(status)}`;
      while (taken.has(name)) name = `${name}_`;
      taken.add(name);
      partNames.set(partKey(op.id, part, status), name);
    }
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
      return `${valueName(this.schemaType(irName))}Validator`;
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
      return `${valueName(this.operationType(operationId, part, status))}Validator`;
    },
    group(group) {
      return groups.get(group) ?? valueName(group);
    },
    groupMethod(operationId) {
      return this.operationFunction(operationId);
    },
  };
}
