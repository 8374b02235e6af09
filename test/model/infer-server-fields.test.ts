// The inference rules of issue 27 that make discord- and box-shaped specs conform, table-driven on small inputs:
// a parameter `<singular>_id` names the resource of its plural (data/param-resource.ts), a decimal-only id pattern
// mints decimal ids (route-table.ts), and a record's fill (record-fill.ts, engine/records.ts fillAbsent).
import { describe, expect, it } from 'vitest';
import { pluralResourceFor, pluralsOfParam } from '../../src/data/param-resource.js';
import { fixedTree, fixedValue } from '../../src/emit/server/record-fill.js';
import type { ApiModel } from '../../src/model/ir.js';
import { decimalIdFormat } from '../../src/emit/server/route-table.js';
import { fillAbsent, fillPresent } from '../../src/sandbox/engine/records.js';

describe('the plural a parameter names', () => {
  it.each([
    ['guild_id', ['guilds', 'guildes']],
    ['channelId', ['channels', 'channeles']],
    ['boxID', ['boxs', 'boxes']],
    ['category_id', ['categorys', 'categoryes', 'categories']],
    ['stage_instance_id', ['stageinstances', 'stageinstancees']],
    ['guild', []],
    ['_id', []],
  ])('%s -> %j', (param, plurals) => {
    expect(pluralsOfParam(param)).toEqual(plurals);
  });

  const route = (resource: string, action: string, path: string) => ({ resource, action, aliasOf: null, path });
  const resources = [{ name: 'guilds' }, { name: 'stage-instances' }, { name: 'categories' }, { name: 'channels' }];
  const routes = [
    route('guilds', 'get', '/guilds/{guild_id}'),
    route('guilds', 'create', '/guilds'),
    route('stage-instances', 'get', '/stage-instances/{stage_instance_id}'),
    route('stage-instances', 'create', '/stage-instances'),
    route('categories', 'get', '/categories/{categoryId}.json'),
    route('categories', 'create', '/categories.json'),
    // Channels cannot be created: a client could not make the parent the parameter names.
    route('channels', 'get', '/channels/{channel_id}'),
  ];
  it.each([
    ['guild_id', 'guilds'],
    ['stage_instance_id', 'stage-instances'],
    ['categoryId', 'categories'],
    ['channel_id', undefined],
    ['user_id', undefined],
    ['guilds', undefined],
  ])('%s names %s', (param, name) => {
    expect(pluralResourceFor(resources, routes, param)?.name).toBe(name);
  });

  it('the resource must be addressed by that very parameter', () => {
    const other = [route('guilds', 'get', '/guilds/{id}'), route('guilds', 'create', '/guilds')];
    expect(pluralResourceFor(resources, other, 'guild_id')).toBeUndefined();
  });
});

describe('a decimal-only id pattern', () => {
  it.each([
    ['^(0|[1-9][0-9]*)$', true],
    ['^[0-9]+$', true],
    ['^\\d{18}$', true],
    ['^[a-z0-9]+$', false],
    ['^[0-9]{4}$', false],
    ['^tag_[0-9a-z]{26}$', false],
    ['', false],
    ['([', false],
  ])('%s: %s', (pattern, decimal) => {
    const format = decimalIdFormat(pattern);
    expect(format !== undefined).toBe(decimal);
    if (format?.kind === 'prefixed') {
      const minted = format.prefix + format.alphabet.repeat(2).slice(0, format.length);
      expect(new RegExp(pattern, 'u').test(minted)).toBe(true);
    }
  });
});

describe('a record filled from its schema', () => {
  it.each([
    [{ const: 'file' }, 'file'],
    [{ type: 'string', enum: ['user'] }, 'user'],
    [{ type: 'string', enum: ['user', 'group'] }, undefined],
    [{ const: null }, null],
    [{ type: 'string' }, undefined],
  ])('fixed value of %j is %j', (schema, value) => {
    expect(fixedValue(schema)).toEqual(value);
  });

  it.each([
    ['absent fields are filled', { name: 'a' }, { name: 'x', type: 'file' }, { name: 'a', type: 'file' }],
    ['sent values win at any depth', { user: { id: '1' } }, { user: { id: '9', type: 'user' } }, { user: { id: '1', type: 'user' } }],
    ['arrays are values, not merged', { tags: ['a'] }, { tags: ['x', 'y'] }, { tags: ['a'] }],
    ['a sent scalar is not replaced by an object', { user: 'me' }, { user: { id: '9' } }, { user: 'me' }],
  ])('%s', (_, data, fill, expected) => {
    const record = structuredClone(data) as Record<string, unknown>;
    fillAbsent(record, fill as never);
    expect(record).toEqual(expected);
  });

  it('a filled value is a copy: filling twice from one fill shares nothing', () => {
    const fill = { mentions: [] as string[] };
    const a: Record<string, unknown> = {};
    const b: Record<string, unknown> = {};
    fillAbsent(a as never, fill as never);
    fillAbsent(b as never, fill as never);
    (a.mentions as string[]).push('x');
    expect(b.mentions).toEqual([]);
    expect(fill.mentions).toEqual([]);
  });

  // discord's message `attachments[]`: a create sends items with fewer fields than the answer's items require.
  const ATTACHMENT = { type: 'object', required: ['id', 'filename', 'size'], properties: { id: { type: 'string' }, filename: { type: 'string' }, size: { type: 'integer' }, kind: { const: 'file' } } };
  const MESSAGE = { type: 'object', properties: { content: { type: 'string' }, attachments: { type: 'array', items: { $ref: '#/$defs/Attachment' } } } };
  const model = { schemas: { Attachment: { name: 'Attachment', schema: ATTACHMENT }, Message: { name: 'Message', schema: MESSAGE } } } as unknown as ApiModel;

  it('completes each item of an array a write sends, from its items schema; an array not sent stays absent', () => {
    const fixed = fixedTree(model, MESSAGE)!;
    const sent = { content: 'hi', attachments: [{ id: '7' }, { id: '8', filename: 'b.png', size: 3 }] };
    const record = structuredClone(sent) as Record<string, unknown>;
    fillPresent(record as never, fixed as never);
    const items = record.attachments as Record<string, unknown>[];
    // What was sent wins; each item gains the required fields and the fixed value it lacked.
    expect(items[0]).toMatchObject({ id: '7', kind: 'file' });
    expect(typeof items[0]!.filename).toBe('string');
    expect(Number.isInteger(items[0]!.size)).toBe(true);
    expect(items[1]).toEqual({ id: '8', filename: 'b.png', size: 3, kind: 'file' });
    const bare: Record<string, unknown> = { content: 'no attachments' };
    fillPresent(bare as never, fixed as never);
    expect(bare).toEqual({ content: 'no attachments' });
  });
});
