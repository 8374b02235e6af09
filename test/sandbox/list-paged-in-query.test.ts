// A plain list pages in the store's query (issue 29): a page of 10 decodes about 10 records however many live
// records of the kind the organization holds, and walking every page gives what the list always gave (every
// live record of the workspace once, in creation order, the same total). On SQLite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsDecoded } from '../../src/sandbox/storage/decode-count.js';
import { describePg, dropSchema, freshSchemaUrl } from './pg-env.js';
import { startHarness, type Harness } from '../support/sandbox.js';

const STORED = 1000;
const simId = (n: number): string => `Pag${String(n).padStart(19, '0')}`;

interface Page {
  simulated_conversations: { simulation_id: string }[];
  next_page_token?: string | null;
}

function behaves(open: () => Promise<Harness>): void {
  let h: Harness;
  let other: string;
  // A record whose lifecycle state hides it (status DELETED, not flagged deleted): never on a page either.
  const hiddenId = simId(STORED + 1);
  beforeAll(async () => {
    h = await open();
    const org = h.sandbox.organizationId;
    for (let start = 0; start < STORED; start += 250) {
      const batch = Array.from({ length: 250 }, (_, i) => ({ kind: 'simulation', id: simId(start + i), data: { status: 'COMPLETED', run_id: 'RunAAAAAAAAAAAAAAAAAAA', has_audio: false } }));
      await h.control.loadFixtures(org, batch);
    }
    // One in another workspace: never on this workspace's pages.
    const { workspace } = await h.client.workspaces.createWorkspace({ slug: 'elsewhere', display_name: 'Elsewhere' });
    other = simId(STORED);
    await h.control.loadFixtures(org, [{ kind: 'simulation', id: other, workspace_id: workspace.id, data: { status: 'COMPLETED', run_id: 'RunAAAAAAAAAAAAAAAAAAA', has_audio: false } }]);
    await h.control.loadFixtures(org, [{ kind: 'simulation', id: hiddenId, data: { status: 'DELETED', run_id: 'RunAAAAAAAAAAAAAAAAAAA', has_audio: false } }]);
  }, 120_000);
  afterAll(async () => h.close());

  const page = async (query: string): Promise<{ page: Page; decoded: number }> => {
    const before = recordsDecoded();
    const response = await h.raw(`/conversations/simulated?${query}`);
    const decoded = recordsDecoded() - before;
    expect(response.status).toBe(200);
    return { page: (await response.json()) as Page, decoded };
  };

  it(`decodes a page of 10, not the ${STORED} live records`, async () => {
    const { page: first, decoded } = await page('page_size=10');
    expect(first.simulated_conversations.map((s) => s.simulation_id)).toEqual(Array.from({ length: 10 }, (_, i) => simId(i)));
    expect(first.next_page_token).toBeTruthy();
    // The page, plus the few records every request reads (key, workspace): far from the stored thousand.
    expect(decoded).toBeLessThan(40);
  });

  it('walks every live record of the workspace once, in creation order, and ends without a token', async () => {
    const seen: string[] = [];
    let token: string | null | undefined;
    do {
      const { page: p } = await page(`page_size=97${token ? `&page_token=${encodeURIComponent(token)}` : ''}`);
      seen.push(...p.simulated_conversations.map((s) => s.simulation_id));
      token = p.next_page_token;
    } while (token);
    expect(seen).toEqual(Array.from({ length: STORED }, (_, i) => simId(i)));
    expect(seen).not.toContain(other);
    expect(seen).not.toContain(hiddenId);
  });

  it('answers a deleted record out of the list and keeps paging by position', async () => {
    await h.client.simulatedConversations.deleteSimulatedConversation(simId(3));
    const { page: first } = await page('page_size=5');
    expect(first.simulated_conversations.map((s) => s.simulation_id)).toEqual([0, 1, 2, 4, 5].map(simId));
  });
}

describe('SQLite store', () => behaves(() => startHarness()));

const schemas: string[] = [];
afterAll(() => schemas.forEach(dropSchema));
describePg('PostgreSQL store', () =>
  behaves(() => {
    const { url, schema } = freshSchemaUrl('paged');
    schemas.push(schema);
    return startHarness({ db: url });
  }),
);
