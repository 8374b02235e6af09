// conversation-list-summary: the list of uploaded conversations leaves the transcript out; the single get
// returns it (facts 2.2: "transcript (single GET only)"; the spec's listUploadedConversations and
// UploadedConversation descriptions say the same).
import { expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import { ownParam } from '../../world.js';
import type { Check } from '../context.js';
import { requireRoute, successRecord } from './personas-audio-shared.js';
import { ruleRoute } from './records-support.js';

const RULE = 'conversation-list-summary';

const listWithoutTranscript: Check = {
  name: `rule ${RULE}: the list answers each conversation without its transcript; the single get returns it`,
  applies: (route) => route.action === 'list' && route.rules.includes(RULE),
  async run(ctx) {
    const submit = requireRoute(ctx, ruleRoute(ctx.suite, 'audio-validate', (r) => r.action === 'create'), 'conversation submit');
    const get = requireRoute(ctx, ctx.world.route(ctx.route.resource ?? 'conversation', 'get'), 'conversation get');
    const body = (await ctx.world.bodyFor(submit)) ?? {};
    for (const field of ['audio', 'audio_url', 'upload_id']) delete body[field];
    const transcript = [{ role: 'user', content: `conformance transcript ${ctx.world.nextSeed()}` }];
    const created = successRecord(await send(ctx.target, submit, { body: { ...body, transcript } }), submit, 'submitting a conversation with a transcript');
    const id = String(created.conversation_id ?? created.id);
    const single = successRecord(await send(ctx.target, get, { path: { [ownParam(get)!]: id } }), get, 'getting the conversation');
    if (!Array.isArray(single.transcript) || single.transcript.length !== 1) fail(`the single get should return the transcript, got ${JSON.stringify(single.transcript)}`);
    const items = ctx.route.pagination?.items ?? 'uploaded_conversations';
    // Filtered to the conversation: on a shared target the list may hold more conversations than one page.
    const answer = await send(ctx.target, ctx.route, { query: { page_size: '100', filter: `conversation_id = "${id}"` } });
    expectSuccess(answer, ctx.route, 'listing conversations');
    const listed = ((answer.body as Record<string, unknown> | undefined)?.[items] as Record<string, unknown>[] | undefined) ?? [];
    const mine = listed.find((c) => c.conversation_id === id || c.id === id);
    if (!mine) fail(`the submitted conversation ${id} is not listed by its id`);
    if ('transcript' in mine) fail('the list answered a conversation with its transcript');
  },
};

export const checks: Check[] = [listWithoutTranscript];
