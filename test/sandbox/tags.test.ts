// Tags through the generated client against the in-process sandbox: lower-case storage, uniqueness among
// active tags (409), colour validation (400 on color), soft delete freeing the name, isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

describe('tags', () => {
  it('stores tag_name lower case and answers 201 {tag}', async () => {
    const { tag } = await h.client.tags.createTag({ tag_name: 'Billing-Flow', color: '#A1B2C3' });
    expect(tag.tag_name).toBe('billing-flow');
    expect(tag.name).toBe(`tags/${tag.id}`);
    const again = await h.client.tags.getTag(tag.id);
    expect(again.tag).toEqual(tag);
  });

  it('refuses a rename to another active tag name with 409 ALREADY_EXISTS on tag_name, case-insensitively', async () => {
    await h.client.tags.createTag({ tag_name: 'taken-name' });
    const { tag } = await h.client.tags.createTag({ tag_name: 'free-name' });
    const error = await failure(h.client.tags.updateTag(tag.id, { tag_name: 'TAKEN-name' }));
    expect(error.status).toBe(409);
    expect(error.code).toBe('ALREADY_EXISTS');
    expect(error.details[0]?.field).toBe('tag_name');
    expect((await h.client.tags.getTag(tag.id)).tag.tag_name).toBe('free-name');
  });

  it('frees the name of a deleted tag', async () => {
    const { tag } = await h.client.tags.createTag({ tag_name: 'short-lived' });
    const deleted = await h.client.tags.deleteTag(tag.id);
    expect(deleted.tag.id).toBe(tag.id);
    expect((await failure(h.client.tags.getTag(tag.id))).status).toBe(404);
    expect((await failure(h.client.tags.deleteTag(tag.id))).status).toBe(404);
    const { tag: reborn } = await h.client.tags.createTag({ tag_name: 'short-lived' });
    expect(reborn.id).not.toBe(tag.id);
  });

  it.each(['red', '#12345', '#1234567', '#GGGGGG', '#12345678a'])('rejects color %s with 400 on field color', async (color) => {
    const { tag } = await h.client.tags.createTag({ tag_name: `c-${color.length}-${Math.random()}` });
    const error = await failure(h.client.tags.updateTag(tag.id, { color }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.details.map((d) => d.field)).toContain('color');
  });

  it('accepts #RRGGBB and #RRGGBBAA', async () => {
    const { tag } = await h.client.tags.createTag({ tag_name: 'colours' });
    expect((await h.client.tags.updateTag(tag.id, { color: '#00ff00' })).tag.color).toBe('#00ff00');
    expect((await h.client.tags.updateTag(tag.id, { color: '#00ff0080' })).tag.color).toBe('#00ff0080');
  });

  it("answers 404 for another organization's tag, and its key cannot list it", async () => {
    const { tag } = await h.client.tags.createTag({ tag_name: 'private' });
    const other = await h.control.createOrganization('Other');
    const client = h.clientFor(other.api_key.key);
    const error = await failure(client.tags.getTag(tag.id));
    expect(error.status).toBe(404);
    expect(JSON.stringify(error.details)).not.toContain(tag.id);
    expect((await client.tags.listTags()).tags).toEqual([]);
    expect((await failure(client.tags.updateTag(tag.id, { color: '#000000' }))).status).toBe(404);
    expect((await failure(client.tags.deleteTag(tag.id))).status).toBe(404);
  });

  it('needs tags:write to update (403 on field permissions)', async () => {
    const { tag } = await h.client.tags.createTag({ tag_name: 'guarded' });
    const key = await h.control.createApiKey(h.sandbox.organizationId, ['tags:read']);
    const error = await failure(h.clientFor(key.key).tags.updateTag(tag.id, { color: '#111111' }));
    expect(error.status).toBe(403);
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.details[0]?.field).toBe('permissions');
  });
});

describe('null in tag bodies (the service client sends nullable fields)', () => {
  it('create with color null has no color; update with tag_name null keeps the name, color null removes the color', async () => {
    const { tag } = await h.client.tags.createTag({ tag_name: `nullable-${Date.now()}`, color: null });
    expect(tag).not.toHaveProperty('color');
    const colored = (await h.client.tags.updateTag(tag.id, { color: '#112233' })).tag;
    expect(colored.color).toBe('#112233');
    const cleared = (await h.client.tags.updateTag(tag.id, { tag_name: null, color: null })).tag;
    expect(cleared.tag_name).toBe(tag.tag_name);
    expect(cleared).not.toHaveProperty('color');
    expect((await failure(h.client.tags.updateTag(tag.id, { color: 'red' }))).details[0]?.field).toBe('color');
  });
});
