// audio-validate (submitUploadedConversation and its deprecated alias submitConversation): checks the
// recording a submit carries exactly as an attach does (audio_url form; base64 audio decoded and checked: WAV
// or MP3, 5 s to 60 min, at most 200 MB; 400 on the field), then creates the conversation with its metric
// waves: the text-only wave is evaluated at once and delivered (event conversation.submitted, wave text);
// a submit that carries audio also has its audio wave evaluated and delivered by a separate call (event
// conversation.audio-attached, wave audio), and has_audio true, so a later attach is 409.
//
// Decisions (the seed is silent; see also audio/conversation.ts and audio/validate.ts):
// - The submit body may carry base64 `audio` (the CLI's submit body has it; declared in
//   SubmitConversationRequest); it is checked like the attach's `audio`. At most one of audio_url, audio and
//   upload_id (the schema's `not` refuses two; this rule refuses them too, on the later field, should the
//   schema ever allow it).
// - An `upload_id` counts as a recording (has_audio true): the sandbox has no upload store to check it against.
// - All 400s come first, then 404s: an unknown `agent_id` is 404 on field agent_id (as the schema documents),
//   an unknown or invisible metric in `metrics` is 404 on field metrics. (The generic create refuses nothing
//   between the rule's `before` and `write`, so the checks run in `write`.)
// - The stored conversation keeps only what a submit may set (transcript, metadata, tags,
//   external_conversation_id, occurred_at, agent_id); server fields (name, create_time, status, has_audio,
//   progress, ...) sent in the body are ignored. external_conversation_id, occurred_at, agent_id and
//   persona_id are null when not given (as in the documented example).
// - The recording itself is not kept: only its description (source, url or upload id, format, duration,
//   size) in the internal `recording` field, null without one.
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, setOwn } from '../engine/records.js';
import { answerWithoutTranscript, metricWaves, RECORDING, raiseWave, recordingOf, setWaves, type Recording, type WaveName } from './audio/conversation.js';

const KEPT = new Set(['conversation_id', 'transcript', 'metadata', 'tags', 'external_conversation_id', 'occurred_at', 'agent_id']);
const NULL_WHEN_ABSENT = ['external_conversation_id', 'occurred_at', 'agent_id', 'persona_id'];

/** The submit's recording (400s first) and its metric waves, after its agent (404s). */
function check(ctx: RequestContext): { recording: Recording | null; waves: Record<WaveName, string[]> } {
  const recording = recordingOf(ctx);
  if (typeof ctx.body.agent_id === 'string') findRecord(ctx, 'agent', ctx.body.agent_id, { field: 'agent_id' });
  return { recording, waves: metricWaves(ctx) };
}

export const audioValidate: Rule = {
  // Named on the submit operations only: every write is a new conversation.
  write(ctx, next) {
    const { recording, waves } = check(ctx);
    for (const key of Object.keys(next)) if (!KEPT.has(key)) delete next[key];
    setOwn(next, 'name', `conversations/${String(next.conversation_id)}`);
    setOwn(next, 'create_time', ctx.now);
    for (const field of NULL_WHEN_ABSENT) if (next[field] === undefined) setOwn(next, field, null);
    setOwn(next, 'has_audio', recording !== null);
    setOwn(next, RECORDING, recording);
    setWaves(next, {
      text: { metric_ids: waves.text, state: 'COMPLETED', completed_at: ctx.now },
      audio: recording !== null ? { metric_ids: waves.audio, state: 'COMPLETED', completed_at: ctx.now } : { metric_ids: waves.audio, state: 'AWAITING_AUDIO', completed_at: null },
    });
  },
  after(ctx, result) {
    // The generic create answers the conversation it made.
    const record = result.record!;
    raiseWave(ctx, record, 'text');
    if (record.data.has_audio === true) raiseWave(ctx, record, 'audio');
    answerWithoutTranscript(ctx, result);
  },
};
