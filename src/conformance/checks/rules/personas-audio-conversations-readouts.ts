// Rule checks of the conversation read-outs beyond the first ones (personas-audio-conversations-outputs.ts), each
// a decision of docs/sandbox.md "Conversations and simulations, issue 15 decisions":
// - conversation-metric-values: on uploaded conversations, start_date / end_date keep create_time in
//   [start_date, end_date), added to the caller's own filter with AND; metric_outputs only with
//   include=metric_outputs; progress only on a get with include_progress=true. On simulated conversations,
//   metric_values on a list only with include=metric_values (a get shows it).
// - conversation-metric-outputs: an uploaded conversation has an output per metric of its waves, IN QUEUE while
//   its wave waits for the recording, COMPLETED once it ran; outputs page like a list.
// - conversation-audio-url: the URL the conversation was given, else one naming it; 3600 s; peaks_url null.
import { expectError, expectSuccess, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import { ownParam } from '../../world.js';
import type { Check } from '../context.js';
import { base64, wavBytes } from './personas-audio-bytes.js';
import { routes, submitted, waveMetrics } from './personas-audio-conversations.js';
import { ruleRoute, show, succeed, type Json } from './records-support.js';


function itemsOf(route: Route, body: unknown): Json[] {
  const items = (body as Json)[route.pagination?.items ?? ''];
  if (!Array.isArray(items)) fail(`the answer of ${route.id} has no list of items`);
  return items as Json[];
}

const pathOf = (route: Route, id: unknown): Record<string, string> => ({ [ownParam(route)!]: String(id) });

const VALUES = 'conversation-metric-values';
const OUTPUTS = 'conversation-metric-outputs';
const AUDIO = 'conversation-audio-url';

export const uploadedListQuery: Check = {
  name: `rule ${VALUES}: start_date and end_date keep the uploaded conversations created in [start_date, end_date), ANDed with the caller's filter (a blank one restricts nothing, an invalid one stays 400); a leap second is 400 on its parameter; metric_outputs only with include=metric_outputs; no progress on a list`,
  applies: (route, suite) => route.id === ruleRoute(suite, VALUES, (r) => r.resource === 'conversation' && r.action === 'list')?.id,
  async run(ctx) {
    const metric = (await ctx.world.create('metric')).id;
    const at = '2025-03-10T12:00:00.000Z';
    const id = (await ctx.world.loadRecord('conversation', { status: 'COMPLETED', has_audio: false, create_time: at, metric_ids: [metric], metric_values: [{ metric_id: metric, value: 1 }] })).id;
    const listed = async (query: Record<string, string>): Promise<Json | undefined> => {
      const answer = await succeed(ctx, ctx.route, { query: { page_size: '100', metric_id: metric, ...query } }, `listing with ${show(query)}`);
      return itemsOf(ctx.route, answer.body).find((c) => c.conversation_id === id);
    };
    const cases: [Record<string, string>, boolean][] = [
      [{ start_date: at }, true],
      [{ start_date: '2025-03-10T12:00:00.001Z' }, false],
      [{ end_date: '2025-03-10T12:00:00.001Z' }, true],
      [{ end_date: at }, false],
      // The same instant in another offset: the bounds compare as instants.
      [{ start_date: '2025-03-10T13:00:00+01:00', end_date: '2025-03-10T13:00:01+01:00' }, true],
      [{ start_date: '2025-03-09T00:00:00Z', end_date: '2025-03-11T00:00:00Z', filter: `conversation_id = "${id}"` }, true],
      [{ start_date: '2025-03-09T00:00:00Z', filter: 'conversation_id = "NoSuchConversationAAAAA"' }, false],
      [{ end_date: '2025-03-11T00:00:00Z', filter: `NOT conversation_id = "${id}"` }, false],
      // A blank filter restricts nothing (the list takes it alone, below): ANDed with the bounds, the bounds decide.
      [{ start_date: '2025-03-09T00:00:00Z', filter: '  ' }, true],
    ];
    await succeed(ctx, ctx.route, { query: { filter: '  ', page_size: '1' } }, 'a blank filter alone');
    // The caller's expression keeps its own meaning: one the list refuses alone (a ")" closing nothing of its
    // own) stays 400 on filter when the bounds are added to it.
    const unbalanced = `conversation_id = "${id}") OR (conversation_id = "${id}"`;
    expectError(await send(ctx.target, ctx.route, { query: { filter: unbalanced } }), 400, 'INVALID_ARGUMENT', 'filter', 'an unbalanced filter alone');
    expectError(await send(ctx.target, ctx.route, { query: { filter: unbalanced, metric_id: metric, start_date: at } }), 400, 'INVALID_ARGUMENT', 'filter', 'an unbalanced filter with metric_id and start_date');
    // Sandbox decision (docs/sandbox.md, date bounds): a leap second passes the date-time validator but names no
    // instant, so it is 400 on its parameter (as in a baseline's history), never an internal error.
    for (const field of ['start_date', 'end_date']) expectError(await send(ctx.target, ctx.route, { query: { [field]: '2016-12-31T23:59:60Z' } }), 400, 'INVALID_ARGUMENT', field, `a leap second as ${field}`);
    const problems: string[] = [];
    for (const [query, kept] of cases) if ((await listed(query)) !== undefined !== kept) problems.push(`${show(query)} ${kept ? 'left out' : 'kept'} the conversation created at ${at}`);
    const plain = await listed({});
    if (!plain) fail('the loaded conversation is not listed by its metric');
    if ('metric_outputs' in plain) problems.push('metric_outputs listed without include=metric_outputs');
    if ('progress' in plain) problems.push('a list shows progress');
    const withOutputs = await listed({ include: 'metric_outputs' });
    const outputs = withOutputs?.metric_outputs as Json[] | undefined;
    if (!Array.isArray(outputs) || outputs.length !== 1 || outputs[0]!.metric_id !== metric || outputs[0]!.value !== 1) problems.push(`include=metric_outputs gave ${show(outputs)}, expected the one output of value 1`);
    if (problems.length > 0) fail(problems.join('; '));
  },
};

export const uploadedProgress: Check = {
  name: `rule ${VALUES}: a get shows progress only with include_progress=true, and never metric_values`,
  applies: (route, suite) => route.id === ruleRoute(suite, VALUES, (r) => r.resource === 'conversation' && r.action === 'get')?.id,
  async run(ctx) {
    const r = routes(ctx);
    const m = await waveMetrics(ctx);
    const record = await submitted(ctx, r, { metrics: [m.text] }, 'a submit with a text metric');
    const get = async (query: Record<string, string>): Promise<Json> => {
      const answer = await succeed(ctx, ctx.route, { path: pathOf(ctx.route, record.conversation_id), query }, `getting with ${show(query)}`);
      return Object.values(answer.body as Json)[0] as Json;
    };
    const plain = await get({});
    if ('progress' in plain) fail(`a plain get shows progress ${show(plain.progress)}`);
    const asked = await get({ include_progress: 'true' });
    if (asked.progress === null || typeof asked.progress !== 'object') fail(`include_progress=true shows progress ${show(asked.progress)}, expected an object`);
    const off = await get({ include_progress: 'false' });
    if ('progress' in off) fail('include_progress=false shows progress');
    if ('metric_values' in plain || 'metric_values' in asked) fail('a get shows metric_values');
  },
};

export const simulatedValues: Check = {
  name: `rule ${VALUES}: a list of simulated conversations shows metric_values only with include=metric_values; a get shows them`,
  applies: (route, suite) => route.id === ruleRoute(suite, VALUES, (r) => r.resource === 'simulation' && r.action === 'list')?.id,
  async run(ctx) {
    const metric = (await ctx.world.ensure('metric')).id;
    const id = (await ctx.world.loadRecord('simulation', { run_id: 'ConformanceRunAAAAAAAA', status: 'COMPLETED', has_audio: false, metric_values: { [metric]: 0.75 } })).id;
    const listed = async (query: Record<string, string>): Promise<Json | undefined> => {
      const answer = await succeed(ctx, ctx.route, { query: { page_size: '100', filter: `simulation_id = "${id}"`, ...query } }, `listing with ${show(query)}`);
      return itemsOf(ctx.route, answer.body).find((s) => s.simulation_id === id);
    };
    const plain = await listed({});
    if (!plain) fail('the loaded simulation is not listed');
    if ('metric_values' in plain) fail('metric_values listed without include=metric_values');
    const included = await listed({ include: 'metric_values' });
    if (show(included?.metric_values) !== show({ [metric]: 0.75 })) fail(`include=metric_values gave ${show(included?.metric_values)}`);
    const get = ctx.world.route('simulation', 'get') ?? fail('the spec has no simulation get');
    const one = Object.values((await succeed(ctx, get, { path: pathOf(get, id) }, 'getting the simulation')).body as Json)[0] as Json;
    if (show(one.metric_values) !== show({ [metric]: 0.75 })) fail(`a get shows metric_values ${show(one.metric_values)}`);
  },
};

export const uploadedOutputs: Check = {
  name: `rule ${OUTPUTS}: an uploaded conversation has an output per metric of its waves, IN QUEUE while the recording is missing and COMPLETED after the attach; outputs page`,
  applies: (route, suite) => route.id === ruleRoute(suite, OUTPUTS, (r) => r.resource === 'conversation' && r.params.path.length === 1)?.id,
  async run(ctx) {
    const r = routes(ctx);
    const m = await waveMetrics(ctx);
    const record = await submitted(ctx, r, { metrics: [m.text, m.audio] }, 'a submit with a text and an audio metric, no recording');
    const path = pathOf(ctx.route, record.conversation_id);
    const list = async (what: string): Promise<Json[]> => (((await succeed(ctx, ctx.route, { path }, what)).body as Json).metrics as Json[]) ?? fail(`${what}: no metrics list`);
    const before = await list('listing the outputs before the attach');
    const brief = (o: Json): Json => ({ metric_output_id: o.metric_output_id, metric_id: o.metric_id, value: o.value, status: o.status, status_reason: o.status_reason });
    const id = String(record.conversation_id);
    const want = [
      { metric_output_id: `${id}_${m.text}`, metric_id: m.text, value: null, status: 'COMPLETED', status_reason: null },
      { metric_output_id: `${id}_${m.audio}`, metric_id: m.audio, value: null, status: 'IN QUEUE', status_reason: 'waiting for the recording' },
    ];
    if (show(before.map(brief)) !== show(want)) fail(`before the attach the outputs are ${show(before.map(brief))}, expected ${show(want)}`);
    const first = (await succeed(ctx, ctx.route, { path, query: { page_size: '1' } }, 'the first page of one output')).body as Json;
    const token = first.next_page_token;
    if ((first.metrics as Json[]).length !== 1 || typeof token !== 'string' || token === '') fail(`page_size=1 answered ${show(first)}, expected one output and a next_page_token`);
    const second = (await succeed(ctx, ctx.route, { path, query: { page_size: '1', page_token: token } }, 'the second page')).body as Json;
    if (show((second.metrics as Json[]).map((o) => o.metric_id)) !== show([m.audio]) || second.next_page_token !== undefined) fail(`the second page is ${show(second)}, expected the audio metric's output and no next_page_token`);
    expectError(await send(ctx.target, ctx.route, { path, query: { page_token: 'not-a-token' } }), 400, 'INVALID_ARGUMENT', 'page_token', 'a page_token the list never gave');
    expectSuccess(await send(ctx.target, r.attach, { path: pathOf(r.attach, id), body: { audio: base64(wavBytes(5)) } }), r.attach, 'attaching a 5 s WAV');
    const after = await list('listing the outputs after the attach');
    if (show(after.map((o) => o.status)) !== show(['COMPLETED', 'COMPLETED']) || after.some((o) => o.status_reason !== null)) fail(`after the attach the outputs are ${show(after.map(brief))}, expected both COMPLETED without status_reason`);
    const unknown = await send(ctx.target, ctx.route, { path: pathOf(ctx.route, 'NoSuchConversationAAAAA') });
    expectError(unknown, 404, 'NOT_FOUND', ownParam(ctx.route)!, 'the outputs of an unknown conversation');
  },
};

export const audioUrlForms: Check = {
  name: `rule ${AUDIO}: the audio_url an uploaded conversation was given, else a URL naming the conversation; url_expires_in_seconds 3600, peaks_url null; 404 without a recording, 404 on the id of an unknown conversation`,
  applies: (route, suite) => route.id === ruleRoute(suite, AUDIO, (r) => r.resource === 'conversation')?.id,
  async run(ctx) {
    const r = routes(ctx);
    const url = 'https://storage.example.com/recordings/readout.wav';
    const given = await submitted(ctx, r, { audio_url: url }, 'a submit with an audio_url');
    const fetched = async (id: unknown, what: string): Promise<Json> => (await succeed(ctx, ctx.route, { path: pathOf(ctx.route, id) }, what)).body as Json;
    const fromUrl = await fetched(given.conversation_id, 'the audio of a conversation submitted with an audio_url');
    const want = { audio_url: url, peaks_url: null, conversation_id: given.conversation_id, url_expires_in_seconds: 3600 };
    for (const [k, v] of Object.entries(want)) if (show(fromUrl[k]) !== show(v)) fail(`${k} is ${show(fromUrl[k])}, expected ${show(v)}`);
    const bytes = await submitted(ctx, r, { audio: base64(wavBytes(5)) }, 'a submit with base64 audio');
    const fromBytes = await fetched(bytes.conversation_id, 'the audio of a conversation submitted with bytes');
    if (typeof fromBytes.audio_url !== 'string' || !fromBytes.audio_url.includes(String(bytes.conversation_id)) || fromBytes.url_expires_in_seconds !== 3600 || fromBytes.peaks_url !== null) {
      fail(`the audio of uploaded bytes is ${show(fromBytes)}, expected a URL naming the conversation, 3600 s and no peaks_url`);
    }
    const silent = await submitted(ctx, r, {}, 'a submit without a recording');
    expectError(await send(ctx.target, ctx.route, { path: pathOf(ctx.route, silent.conversation_id) }), 404, 'NOT_FOUND', undefined, 'the audio of a conversation without a recording');
    expectError(await send(ctx.target, ctx.route, { path: pathOf(ctx.route, 'NoSuchConversationAAAAA') }), 404, 'NOT_FOUND', ownParam(ctx.route)!, 'the audio of an unknown conversation');
  },
};

export const checks: Check[] = [uploadedListQuery, uploadedProgress, simulatedValues, uploadedOutputs, audioUrlForms];
