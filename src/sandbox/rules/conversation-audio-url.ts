// conversation-audio-url (GET …/audio of simulated and uploaded conversations, both paths): where to download
// the recording. Decisions (docs/sandbox.md): without a recording (has_audio false) it is 404; the URL is the
// audio_url the conversation was given (a loaded record's audio_url, or the one a submit or attach described in
// the record's `recording`), else a sandbox URL under the request's origin
// that names the conversation (the sandbox stores no audio, so nothing is served there); it "expires" in 3600 s;
// peaks_url is null.
import { notFound } from '../errors.js';
import type { Rule } from '../engine/hooks.js';
import { findRecord, firstPathParam } from '../engine/records.js';
import { isJsonObject } from '../storage/store.js';

export const EXPIRES_IN_SECONDS = 3600;

export const conversationAudioUrl: Rule = {
  handle(ctx) {
    const kind = ctx.route.resource!;
    const param = firstPathParam(ctx.route)!;
    const record = findRecord(ctx, kind, ctx.path[param], { field: param });
    if (record.data.has_audio !== true) throw notFound(null, 'recording');
    // The recording's description (audio-validate, audio-attach): `url` when it was given as an audio_url.
    const recording = record.data.recording;
    const url =
      typeof record.data.audio_url === 'string'
        ? record.data.audio_url
        : isJsonObject(recording) && typeof recording.url === 'string'
          ? recording.url
          : `${ctx.origin}/sandbox-audio/${kind}s/${encodeURIComponent(record.id)}.wav`;
    return { body: { audio_url: url, peaks_url: null, [param]: record.id, url_expires_in_seconds: EXPIRES_IN_SECONDS } };
  },
};
