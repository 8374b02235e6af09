// Simulated conversations (loaded as fixtures: runs produce them) through the generated client against the
// in-process sandbox: get, PATCH of is_public / notes changing only the fields sent, on the canonical
// /conversations/simulated/{id} path and the deprecated /simulations/{id} alias, id length 22-27, soft delete,
// list paging and isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, startHarness, type Harness } from '../support/sandbox.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

let counter = 0;
/** A simulation id of `length` characters, unique in this file. */
function simId(length = 22): string {
  counter += 1;
  return `sim${String(counter).padStart(5, '0')}`.padEnd(length, 'x');
}

async function loadSimulation(data: Record<string, unknown> = {}, id = simId(), org = h.sandbox.organizationId): Promise<string> {
  await h.control.loadFixtures(org, [
    {
      kind: 'simulation',
      id,
      data: {
        name: `simulations/${id}`,
        run_id: 'run-1',
        status: 'COMPLETED',
        agent_id: 'A'.repeat(22),
        persona_id: 'P'.repeat(22),
        has_audio: true,
        notes: 'first pass',
        is_public: false,
        metric_values: { m1: 0.75 },
        ...data,
      },
    },
  ]);
  return id;
}

describe('simulated conversations', () => {
  it('answers GET on the canonical path with {simulated_conversation} and on the alias with {simulation}', async () => {
    const id = await loadSimulation();
    const { simulated_conversation: s } = await h.client.simulatedConversations.getSimulatedConversation(id);
    expect(s).toMatchObject({ simulation_id: id, name: `simulations/${id}`, status: 'COMPLETED', run_id: 'run-1', notes: 'first pass', is_public: false });
    expect((await h.client.simulatedConversations.getSimulation(id)).simulation).toEqual(s);
  });

  it('PATCH changes only the fields sent (is_public alone, then notes alone)', async () => {
    const id = await loadSimulation();
    const before = (await h.client.simulatedConversations.getSimulatedConversation(id)).simulated_conversation;
    const a = (await h.client.simulatedConversations.updateSimulatedConversation(id, { is_public: true })).simulated_conversation;
    expect(a).toEqual({ ...before, is_public: true });
    const b = (await h.client.simulatedConversations.updateSimulatedConversation(id, { notes: 'reviewed: fine' })).simulated_conversation;
    expect(b).toEqual({ ...before, is_public: true, notes: 'reviewed: fine' });
    expect((await h.client.simulatedConversations.getSimulatedConversation(id)).simulated_conversation).toEqual(b);
  });

  it('PATCH on the deprecated /simulations/{id} alias answers {simulation} and changes the same record', async () => {
    const id = await loadSimulation();
    const { simulation } = await h.client.simulatedConversations.updateSimulation(id, { notes: 'via alias' });
    expect(simulation.notes).toBe('via alias');
    expect(simulation.is_public).toBe(false);
    expect((await h.client.simulatedConversations.getSimulatedConversation(id)).simulated_conversation.notes).toBe('via alias');
  });

  it('notes null removes the notes; is_public null leaves the flag; an empty body changes nothing', async () => {
    const id = await loadSimulation({ is_public: true });
    const cleared = (await h.client.simulatedConversations.updateSimulatedConversation(id, { notes: null })).simulated_conversation;
    expect(cleared).not.toHaveProperty('notes');
    expect(cleared.is_public).toBe(true);
    const kept = (await h.client.simulatedConversations.updateSimulatedConversation(id, { is_public: null })).simulated_conversation;
    expect(kept.is_public).toBe(true);
    expect((await h.client.simulatedConversations.updateSimulatedConversation(id, {})).simulated_conversation).toEqual(kept);
  });

  it('refuses notes over 500 characters and any field other than is_public and notes, changing nothing', async () => {
    const id = await loadSimulation();
    const long = await failure(h.client.simulatedConversations.updateSimulatedConversation(id, { notes: 'n'.repeat(501) }));
    expect(long.status).toBe(400);
    expect(long.details.map((d) => d.field)).toContain('notes');
    expect((await h.client.simulatedConversations.updateSimulatedConversation(id, { notes: 'n'.repeat(500) })).simulated_conversation.notes).toHaveLength(500);
    for (const body of [{ status: 'FAILED', is_public: true }, { run_id: 'run-2' }, { simulation_id: 'Z'.repeat(22) }]) {
      const error = await failure(h.client.simulatedConversations.updateSimulatedConversation(id, body as never));
      expect(error.status).toBe(400);
      expect(error.code).toBe('INVALID_ARGUMENT');
    }
    const now = (await h.client.simulatedConversations.getSimulatedConversation(id)).simulated_conversation;
    expect(now).toMatchObject({ simulation_id: id, status: 'COMPLETED', run_id: 'run-1', is_public: false });
  });

  it('takes ids of 22 to 27 characters; 21 and 28 are 400 on simulation_id on every path', async () => {
    for (const length of [22, 27]) {
      const id = await loadSimulation({}, simId(length));
      expect((await h.client.simulatedConversations.getSimulatedConversation(id)).simulated_conversation.simulation_id).toBe(id);
      expect((await h.client.simulatedConversations.updateSimulation(id, { is_public: true })).simulation.is_public).toBe(true);
    }
    for (const id of ['s'.repeat(21), 's'.repeat(28)]) {
      for (const call of [
        h.client.simulatedConversations.getSimulatedConversation(id),
        h.client.simulatedConversations.getSimulation(id),
        h.client.simulatedConversations.updateSimulatedConversation(id, { is_public: true }),
        h.client.simulatedConversations.updateSimulation(id, { is_public: true }),
        h.client.simulatedConversations.deleteSimulatedConversation(id),
      ]) {
        const error = await failure(call);
        expect(error.status).toBe(400);
        expect(error.details.map((d) => d.field)).toContain('simulation_id');
      }
    }
  });

  it('is 404 for an unknown id and for another organization\'s simulation', async () => {
    const unknown = await failure(h.client.simulatedConversations.getSimulatedConversation('u'.repeat(24)));
    expect(unknown.status).toBe(404);
    const other = await h.control.createOrganization('Other');
    const theirs = await loadSimulation({}, simId(), other.organization.id);
    for (const call of [
      h.client.simulatedConversations.getSimulatedConversation(theirs),
      h.client.simulatedConversations.getSimulation(theirs),
      h.client.simulatedConversations.updateSimulatedConversation(theirs, { is_public: true }),
      h.client.simulatedConversations.updateSimulation(theirs, { notes: 'x' }),
      h.client.simulatedConversations.deleteSimulatedConversation(theirs),
    ]) {
      const error = await failure(call);
      expect(error.status).toBe(404);
      expect(JSON.stringify(error.body)).not.toContain(theirs);
    }
    const mine = (await h.client.simulatedConversations.listSimulatedConversations({ query: { page_size: 100 } })).simulated_conversations.map((s) => s.simulation_id);
    expect(mine).not.toContain(theirs);
    const client = h.clientFor(other.api_key.key);
    expect((await client.simulatedConversations.getSimulatedConversation(theirs)).simulated_conversation.is_public).toBe(false);
  });

  it('DELETE is soft: {} then 404 on get, patch and a repeat delete, and left out of the list', async () => {
    const id = await loadSimulation();
    expect(await h.client.simulatedConversations.deleteSimulatedConversation(id)).toEqual({});
    for (const call of [
      h.client.simulatedConversations.getSimulatedConversation(id),
      h.client.simulatedConversations.getSimulation(id),
      h.client.simulatedConversations.updateSimulatedConversation(id, { is_public: true }),
      h.client.simulatedConversations.deleteSimulatedConversation(id),
    ]) {
      expect((await failure(call)).status).toBe(404);
    }
    const ids = (await h.client.simulatedConversations.listSimulatedConversations({ query: { page_size: 100 } })).simulated_conversations.map((s) => s.simulation_id);
    expect(ids).not.toContain(id);
  });

  it('lists the workspace\'s simulated conversations one page at a time', async () => {
    const ids = [await loadSimulation(), await loadSimulation(), await loadSimulation()];
    const seen: string[] = [];
    for await (const s of h.client.simulatedConversations.listSimulatedConversationsAll({ query: { page_size: 2 } })) seen.push(s.simulation_id);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect(new Set(seen).size).toBe(seen.length);
    const first = await h.client.simulatedConversations.listSimulatedConversations({ query: { page_size: 1 } });
    expect(first.simulated_conversations).toHaveLength(1);
    expect(typeof first.next_page_token).toBe('string');
    const tooBig = await failure(h.client.simulatedConversations.listSimulatedConversations({ query: { page_size: 101 } }));
    expect(tooBig.status).toBe(400);
  });

  it('names a fixture loaded without a name simulations/<id>', async () => {
    const id = simId();
    await h.control.loadFixtures(h.sandbox.organizationId, [{ kind: 'simulation', id, data: { status: 'COMPLETED', run_id: 'RunAAAAAAAAAAAAAAAAAAA', has_audio: false } }]);
    expect((await h.client.simulatedConversations.getSimulatedConversation(id)).simulated_conversation.name).toBe(`simulations/${id}`);
  });
});
