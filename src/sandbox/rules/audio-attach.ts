// audio-attach (attachUploadedConversationAudio and its deprecated alias attachConversationAudio): attaches
// the recording to a conversation that has none. Exactly one of audio_url or audio (both or neither: 400,
// checked by the generic validator from x-exactly-one-of); audio_url must be HTTPS or s3://bucket/key and
// base64 audio a WAV or MP3 recording of 5 s to 60 min and at most 200 MB, checked from its bytes (400 on
// the field, saying why). A conversation that already has audio, including one submitted with audio, is 409
// ALREADY_EXISTS on the field sent; audio is never overwritten. The audio-dependent metric wave is then
// evaluated and delivered by its own webhook call (event conversation.audio-attached, wave audio).
//
// Decisions (the seed is silent; see also audio/conversation.ts and audio/validate.ts):
// - Order of refusals: 400 (the body, including the recording's bytes) before 404 (the conversation) before
//   409 (it already has audio), as everywhere else in the sandbox.
// - The recording itself is not kept, only its description in the internal `recording` field.
import type { RequestContext } from '../engine/context.js';
import type { Rule } from '../engine/hooks.js';
import { setOwn } from '../engine/records.js';
import { alreadyExists } from '../errors.js';
import { answerWithoutTranscript, RECORDING, raiseWave, recordingOf, setWaves, wavesOf, type Recording } from './audio/conversation.js';

const checked = new WeakMap<RequestContext, Recording | null>();

export const audioAttach: Rule = {
  before(ctx) {
    checked.set(ctx, recordingOf(ctx));
  },
  // An attach updates a stored conversation (previous is always given); the generic validator has already
  // refused both or neither of audio_url and audio (x-exactly-one-of, non-null strings), so `before` found one.
  write(ctx, next, previous) {
    const field = typeof ctx.body.audio_url === 'string' ? 'audio_url' : 'audio';
    delete next.audio_url;
    delete next.audio;
    if (previous!.has_audio === true) throw alreadyExists(field, 'The conversation already has audio; audio is never overwritten.');
    const recording = checked.get(ctx)!;
    setOwn(next, 'has_audio', true);
    setOwn(next, RECORDING, recording);
    const waves = wavesOf(next);
    waves.audio = { ...waves.audio, state: 'COMPLETED', completed_at: ctx.now };
    setWaves(next, waves);
  },
  after(ctx, result) {
    // The generic update answers the conversation it changed.
    raiseWave(ctx, result.record!, 'audio');
    answerWithoutTranscript(ctx, result);
  },
};
