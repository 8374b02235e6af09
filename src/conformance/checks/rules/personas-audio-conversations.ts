// audio-validate (submit) and audio-attach (attach): the recording of an uploaded conversation.
// Seed, Conversation audio: "Body: exactly one of `audio_url` or `audio`"; audio_url is an HTTPS URL or
// `s3://bucket/key`, audio base64 bytes, "WAV or MP3, 5 s to 60 min, 200 MB max"; "Audio already attached
// (including conversations submitted with audio): 409 ALREADY_EXISTS. Overwriting is unsupported." States:
// "submitted without audio -> PATCH audio -> has audio, audio-dependent metrics queued (second wave)".
// Events 3: text-only metrics are delivered after the submit, audio-dependent ones "by a separate, later
// webhook call". docs/sandbox.md (Conversations) gives the sandbox's choices used here: refusals in the
// order 400, 404, 409; the status is IN_PROGRESS while audio metrics wait for a recording, else COMPLETED;
// submit and attach answer without the transcript, GET includes it.
import { expectError, send } from '../../http.js';
import { fail } from '../../result.js';
import type { Route } from '../../suite-data.js';
import { ownParam } from '../../world.js';
import type { Check, CheckContext } from '../context.js';
import { unansweredUrl } from '../unanswered-url.js';
import { base64, lowRateMp3Bytes, mp3Bytes, notAudioBytes, wavBytes } from './personas-audio-bytes.js';
import { propertySchema, ruleRoute } from './records-support.js';
import { appliesTo, expectField, expectRefused, requireRoute, successRecord, unique } from './personas-audio-shared.js';

const VALIDATE = 'audio-validate';
const ATTACH = 'audio-attach';
const AUDIO_FIELDS = ['audio_url', 'audio', 'upload_id'];
const HTTPS_URL = 'https://storage.example.com/recordings/call.wav';

export interface Routes {
  submit: Route;
  attach: Route;
  get: Route;
}

export function routes(ctx: CheckContext): Routes {
  return {
    submit: requireRoute(ctx, ruleRoute(ctx.suite, VALIDATE, (r) => r.action === 'create'), 'conversation submit'),
    attach: requireRoute(ctx, ruleRoute(ctx.suite, ATTACH, (r) => r.action === 'update'), 'conversation audio attach'),
    get: requireRoute(ctx, ctx.world.route('conversation', 'get'), 'conversation get'),
  };
}

/** A valid submit body with a transcript and no recording, plus `extra`. */
async function submitBody(ctx: CheckContext, route: Route, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const body = (await ctx.world.bodyFor(route)) ?? {};
  for (const f of AUDIO_FIELDS) delete body[f];
  return { ...body, ...extra };
}

/** Submits a conversation and answers its record. */
export async function submitted(ctx: CheckContext, r: Routes, extra: Record<string, unknown> = {}, what = 'submitting a conversation'): Promise<Record<string, unknown>> {
  return successRecord(await send(ctx.target, r.submit, { body: await submitBody(ctx, r.submit, extra) }), r.submit, what);
}

function pathOf(route: Route, id: unknown): Record<string, string> {
  return { [ownParam(route)!]: String(id) };
}

/** A well-formed conversation id that names nothing (22-26 characters). */
function unknownId(ctx: CheckContext): string {
  return `Unknown${unique(ctx)}`.replace(/[^A-Za-z0-9]/g, '').padEnd(22, '0').slice(0, 26);
}

const WAV_5S = (): string => base64(wavBytes(5));

// ---------------------------------------------------------------------------------------- audio-validate

const submitRecording: Check = {
  name: `rule ${VALIDATE}: a submit with a WAV or MP3 of 5 s or more, or an audio_url, has has_audio true and a later attach is 409; without one has_audio is false`,
  applies: appliesTo(VALIDATE, 'create'),
  async run(ctx) {
    const r = routes(ctx);
    const plain = await submitted(ctx, r, {}, 'a submit without a recording');
    expectField(plain, 'has_audio', false, 'a submit without a recording');
    // The spec's UploadedConversation.name: "The resource name, `conversations/<conversation_id>`".
    expectField(plain, 'name', `conversations/${String(plain.conversation_id)}`, 'a submitted conversation');
    const recordings: [string, Record<string, unknown>][] = [
      ['a 5 s WAV', { audio: WAV_5S() }],
      ['an MP3 of just over 5 s', { audio: base64(mp3Bytes(5)) }],
      ['an HTTPS audio_url', { audio_url: HTTPS_URL }],
      ['an s3:// audio_url', { audio_url: 's3://conformance-recordings/calls/call.mp3' }],
    ];
    for (const [what, recording] of recordings) {
      const record = await submitted(ctx, r, recording, `a submit with ${what}`);
      expectField(record, 'has_audio', true, `a submit with ${what}`);
      await expectRefused(ctx, r.attach, { path: pathOf(r.attach, record.conversation_id), body: { audio_url: HTTPS_URL } }, 'audio_url', `attaching to a conversation submitted with ${what}`, 409);
    }
  },
};

const submitRefusals: Check = {
  name: `rule ${VALIDATE}: a recording under 5 s or over 60 min, not WAV or MP3, or not base64 is 400 on audio; a malformed audio_url is 400 on audio_url`,
  applies: appliesTo(VALIDATE, 'create'),
  async run(ctx) {
    const r = routes(ctx);
    const refused: [string, string, string][] = [
      ['audio', base64(wavBytes(4.999)), 'a WAV of 4.999 s'],
      ['audio', base64(mp3Bytes(5, 'down')), 'an MP3 just under 5 s'],
      ['audio', base64(lowRateMp3Bytes(3600 + 1)), 'an MP3 of 60 min 1 s'],
      ['audio', base64(notAudioBytes()), 'bytes that are neither WAV nor MP3'],
      ['audio', 'not base64 at all!', 'text that is not base64'],
      // docs/sandbox.md (Conversations): an s3:// bucket name has 3-63 characters; an HTTPS URL needs a host.
      ['audio_url', 's3://ab/call.wav', 'an s3:// URL with a 2-character bucket'],
      ['audio_url', 'https://', 'an HTTPS URL without a host'],
    ];
    for (const [field, value, what] of refused) {
      await expectRefused(ctx, r.submit, { body: await submitBody(ctx, r.submit, { [field]: value }) }, field, `a submit with ${what}`);
    }
  },
};

const submitOrder: Check = {
  // The spec's agent_id: "A malformed id is 400, an unknown one 404"; docs/sandbox.md: 400 comes before 404.
  name: `rule ${VALIDATE}: an unknown agent_id is 404 on agent_id, but a bad recording with it is 400 on audio; a known agent_id is kept`,
  applies: appliesTo(VALIDATE, 'create'),
  async run(ctx) {
    const r = routes(ctx);
    const missing = unknownId(ctx).slice(0, 22);
    await expectRefused(ctx, r.submit, { body: await submitBody(ctx, r.submit, { agent_id: missing }) }, 'agent_id', 'a submit naming an unknown agent', 404);
    await expectRefused(ctx, r.submit, { body: await submitBody(ctx, r.submit, { agent_id: missing, audio: base64(notAudioBytes()) }) }, 'audio', 'a submit with a bad recording and an unknown agent');
    const agent = await ctx.world.ensure('agent');
    const external = `conformance-${unique(ctx)}`;
    const record = await submitted(ctx, r, { agent_id: agent.id, external_conversation_id: external }, 'a submit naming an agent');
    expectField(record, 'agent_id', agent.id, 'a submit naming an agent');
    expectField(record, 'external_conversation_id', external, 'a submit with an external_conversation_id');
  },
};

const submitNulls: Check = {
  // facts 2.2: the documented submit answer shows "agent_id":null,"persona_id":null for a conversation that
  // names neither; external_conversation_id and occurred_at are null when not given (the sandbox's choice, as
  // audio-validate documents: the fields are always present, the example shows them).
  name: `rule ${VALIDATE}: a submit naming no agent, persona, external id or time answers agent_id, persona_id, external_conversation_id and occurred_at as null`,
  applies: appliesTo(VALIDATE, 'create'),
  async run(ctx) {
    const r = routes(ctx);
    const fields = ['agent_id', 'persona_id', 'external_conversation_id', 'occurred_at'].filter((f) => propertySchema(ctx, 'conversation', f) !== undefined);
    const body = await submitBody(ctx, r.submit);
    for (const f of fields) delete body[f];
    const record = successRecord(await send(ctx.target, r.submit, { body }), r.submit, 'a submit without those fields');
    for (const f of fields) if (record[f] !== null) fail(`a submit without ${f} answers ${f} ${JSON.stringify(record[f])}, expected null`);
  },
};

const submitTranscript: Check = {
  name: `rule ${VALIDATE}: the submit answers without the transcript; GET of the conversation returns it`,
  applies: appliesTo(VALIDATE, 'create'),
  async run(ctx) {
    const r = routes(ctx);
    const body = await submitBody(ctx, r.submit);
    const record = successRecord(await send(ctx.target, r.submit, { body }), r.submit, 'a submit with a transcript');
    if (record.transcript !== undefined) fail(`the submit answer carries the transcript: ${JSON.stringify(record.transcript).slice(0, 200)}`);
    const got = successRecord(await send(ctx.target, r.get, { path: pathOf(r.get, record.conversation_id) }), r.get, 'getting the conversation');
    if (JSON.stringify(got.transcript) !== JSON.stringify(body.transcript)) fail(`expected GET to return the submitted transcript ${JSON.stringify(body.transcript)}, got ${JSON.stringify(got.transcript)}`);
  },
};

/** A text metric and an audio-dependent one (docs/sandbox.md: audio-LLM types form the audio wave). */
export async function waveMetrics(ctx: CheckContext): Promise<{ text: string; audio: string }> {
  const text = await ctx.world.create('metric', { metric_type: 'METRIC_LLM_BINARY', prompt: 'Did the agent greet the caller?' });
  const audio = await ctx.world.create('metric', { metric_type: 'METRIC_AUDIO_LLM_BINARY', prompt: 'Does the agent sound calm?' });
  return { text: text.id, audio: audio.id };
}

function expectMetrics(record: Record<string, unknown>, ids: string[], what: string): void {
  const got = Array.isArray(record.metric_ids) ? [...(record.metric_ids as string[])].sort() : record.metric_ids;
  if (JSON.stringify(got) !== JSON.stringify([...ids].sort())) fail(`${what}: expected metric_ids ${JSON.stringify(ids)}, got ${JSON.stringify(record.metric_ids)}`);
}

const submitWaves: Check = {
  name: `rule ${VALIDATE}: audio-dependent metrics keep a submit without a recording IN_PROGRESS; text metrics, or a recording, make it COMPLETED`,
  applies: appliesTo(VALIDATE, 'create'),
  async run(ctx) {
    const r = routes(ctx);
    const m = await waveMetrics(ctx);
    const textOnly = await submitted(ctx, r, { metrics: [m.text] }, 'a submit with a text metric');
    expectField(textOnly, 'status', 'COMPLETED', 'a submit with only a text metric');
    expectMetrics(textOnly, [m.text], 'a submit with a text metric');
    const waiting = await submitted(ctx, r, { metrics: [m.text, m.audio] }, 'a submit with an audio metric and no recording');
    expectField(waiting, 'status', 'IN_PROGRESS', 'a submit with an audio metric and no recording');
    expectMetrics(waiting, [m.text, m.audio], 'a submit with a text and an audio metric');
    const withAudio = await submitted(ctx, r, { metrics: [m.text, m.audio], audio: WAV_5S() }, 'a submit with an audio metric and a recording');
    expectField(withAudio, 'status', 'COMPLETED', 'a submit with an audio metric and a recording');
  },
};

// ---------------------------------------------------------------------------------- delivery (Events 3)

/** A fresh job_complete webhook (its last_triggered_at is null until an event fires); the World points it at the receiver when there is one. */
async function freshWebhook(ctx: CheckContext): Promise<string> {
  const created = await ctx.world.create('webhook', { type: 'job_complete', ...(ctx.target.receiver ? {} : { url: unansweredUrl('https', 'conformance') }) });
  return created.id;
}

/** The webhook's last_triggered_at once it is later than `after` (deliveries may be asynchronous), or null. */
async function triggeredAfter(ctx: CheckContext, webhookId: string, after: string | null): Promise<string | null> {
  const list = requireRoute(ctx, ctx.world.route('webhook', 'list'), 'webhook list');
  for (let attempt = 0; attempt < 40; attempt++) {
    const answer = await send(ctx.target, list, {});
    const items = Object.values((answer.body as Record<string, unknown>) ?? {}).find(Array.isArray) as Record<string, unknown>[] | undefined;
    const at = items?.find((w) => w.id === webhookId)?.last_triggered_at;
    if (typeof at === 'string' && (after === null || Date.parse(at) > Date.parse(after))) return at;
    await new Promise((resolve) => setTimeout(resolve, attempt < 5 ? 5 : 50));
  }
  return null;
}

const submitDelivers: Check = {
  name: `rule ${VALIDATE}: a submit delivers its text wave to the job_complete webhooks (last_triggered_at is set)`,
  applies: appliesTo(VALIDATE, 'create'),
  async run(ctx) {
    const r = routes(ctx);
    const webhook = await freshWebhook(ctx);
    await submitted(ctx, r);
    if ((await triggeredAfter(ctx, webhook, null)) === null) fail('no webhook call after a submit: the webhook last_triggered_at stayed null');
  },
};

// ------------------------------------------------------------------------------------------- audio-attach

const attachOnce: Check = {
  name: `rule ${ATTACH}: an attach gives a conversation without audio has_audio true and completes its audio wave; a second attach is 409 ALREADY_EXISTS`,
  applies: appliesTo(ATTACH, 'update'),
  async run(ctx) {
    const r = routes(ctx);
    const m = await waveMetrics(ctx);
    const before = await submitted(ctx, r, { metrics: [m.audio] }, 'a submit with an audio metric and no recording');
    expectField(before, 'has_audio', false, 'before the attach');
    expectField(before, 'status', 'IN_PROGRESS', 'an audio metric waiting for the recording');
    const path = pathOf(r.attach, before.conversation_id);
    const attached = successRecord(await send(ctx.target, r.attach, { path, body: { audio: WAV_5S() } }), r.attach, 'attaching a 5 s WAV');
    expectField(attached, 'has_audio', true, 'the attach answer');
    expectField(attached, 'status', 'COMPLETED', 'the attach answer (the audio wave ran)');
    if (attached.transcript !== undefined) fail('the attach answer carries the transcript');
    const got = successRecord(await send(ctx.target, r.get, { path: pathOf(r.get, before.conversation_id) }), r.get, 'getting the conversation');
    expectField(got, 'has_audio', true, 'GET after the attach');
    // The detail names the offender (seed, Errors), here the recording field sent (the sandbox's reading).
    for (const field of ['audio_url', 'audio']) {
      const body = { [field]: field === 'audio' ? WAV_5S() : HTTPS_URL };
      await expectRefused(ctx, r.attach, { path, body }, field, `a second attach with ${field}`, 409);
    }
  },
};

const attachOrder: Check = {
  name: `rule ${ATTACH}: a bad recording is 400 on its field before 404 (unknown conversation) and 409 (audio already attached)`,
  applies: appliesTo(ATTACH, 'update'),
  async run(ctx) {
    const r = routes(ctx);
    const unknown = pathOf(r.attach, unknownId(ctx));
    await expectRefused(ctx, r.attach, { path: unknown, body: { audio: base64(notAudioBytes()) } }, 'audio', 'bytes that are not audio, to an unknown conversation');
    await expectRefused(ctx, r.attach, { path: unknown, body: { audio_url: 's3://ab/call.wav' } }, 'audio_url', 'a malformed s3:// URL, to an unknown conversation');
    expectError(await send(ctx.target, r.attach, { path: unknown, body: { audio: WAV_5S() } }), 404, 'NOT_FOUND', undefined, 'a valid recording to an unknown conversation');
    const withAudio = await submitted(ctx, r, { audio_url: HTTPS_URL }, 'a submit with an audio_url');
    await expectRefused(ctx, r.attach, { path: pathOf(r.attach, withAudio.conversation_id), body: { audio: base64(wavBytes(4.5)) } }, 'audio', 'a 4.5 s WAV to a conversation that has audio');
  },
};

const attachDelivers: Check = {
  name: `rule ${ATTACH}: an attach delivers the audio wave by a separate, later webhook call (last_triggered_at moves on)`,
  applies: appliesTo(ATTACH, 'update'),
  async run(ctx) {
    const r = routes(ctx);
    const webhook = await freshWebhook(ctx);
    const conversation = await submitted(ctx, r);
    const first = await triggeredAfter(ctx, webhook, null);
    if (first === null) fail('no webhook call after the submit (the text wave)');
    // Timestamps have millisecond precision: let the clock move before the attach.
    await new Promise((resolve) => setTimeout(resolve, 5));
    successRecord(await send(ctx.target, r.attach, { path: pathOf(r.attach, conversation.conversation_id), body: { audio_url: HTTPS_URL } }), r.attach, 'attaching an audio_url');
    if ((await triggeredAfter(ctx, webhook, first)) === null) fail(`no later webhook call after the attach: last_triggered_at stayed ${first}`);
  },
};

export const checks: Check[] = [submitRecording, submitRefusals, submitOrder, submitNulls, submitTranscript, submitWaves, submitDelivers, attachOnce, attachOrder, attachDelivers];
