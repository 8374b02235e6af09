// What submit (audio-validate) and attach (audio-attach) share: the recording a request carries, the two
// metric waves of an uploaded conversation and the status/progress they give, the events that deliver them,
// and the response without the transcript.
//
// Decisions (the seed says only that text-only metrics run right after submit and audio-dependent metrics
// after the audio attachment, each wave delivered by its own webhook call):
// - The sandbox has no scorer: a wave is evaluated at once, inside the request that starts it, and its
//   webhook call goes out after the commit. It computes no numbers: no `metric_values` are stored and each wave's
//   delivery carries the wave's metric ids with empty `metric_values`.
// - The metrics of a conversation are the submit's `metrics` (deduplicated; each must be a metric the caller
//   can see, else 404 on field `metrics`); without `metrics` there are none (the sandbox has no notion of
//   organization default metrics). A metric is audio-dependent when its metric_type is one of
//   AUDIO_METRIC_TYPES (the audio-LLM, custom-audio and signal-analysis types); every other metric is in the
//   text wave.
// - Status: COMPLETED once no metric awaits audio; IN_PROGRESS while audio-dependent metrics await a
//   recording (a transcript-only conversation with audio metrics stays IN_PROGRESS until audio is attached).
//   progress counts the metrics: completed ones, and the ones awaiting audio as in progress.
// - Events: submit raises `conversation.submitted` (wave text); a submit that carries audio (audio_url,
//   audio or upload_id) also raises `conversation.audio-attached` (wave audio), so the consumer gets the two
//   separate calls either way; attach raises `conversation.audio-attached`. Payload:
//   `{record, wave, conversation_id, metric_ids, metric_values}` where record is the stored conversation data
//   (as the engine's default event payload) and the rest is what the delivery of that wave needs.
// - The transcript is returned by the single get only (facts 2.2): submit and attach answer without it.
import type { ActionResult, RequestContext } from '../../engine/context.js';
import { clone, findRecord, present, setOwn } from '../../engine/records.js';
import { invalid } from '../../errors.js';
import type { Json, StoredRecord } from '../../storage/store.js';
import { raiseEvent } from '../events/payloads.js';
import { checkAudioBase64, checkAudioUrl } from './validate.js';

/** Metric types that need the recording. */
export const AUDIO_METRIC_TYPES: ReadonlySet<string> = new Set([
  'METRIC_AUDIO_LLM_BINARY',
  'METRIC_AUDIO_LLM_CATEGORICAL',
  'METRIC_AUDIO_LLM_NUMERICAL',
  'METRIC_CUSTOM_AUDIO_FREQUENCY',
  'METRIC_CUSTOM_AUDIO_SENTIMENT',
  'METRIC_TRACE_AUDIO_UPLOAD_STT_WER',
  'METRIC_PAUSE_ANALYSIS',
  'METRIC_VOICE_QUALITY',
  'METRIC_PHONEME_STRETCH',
  'METRIC_SYLLABLE_RATE',
  'METRIC_CODEC_ARTIFACT',
  'METRIC_CLIPPING_ARTIFACT',
  'METRIC_DROPOUT_ARTIFACT',
  'METRIC_TIMBRE_DRIFT',
  'METRIC_SPEECH_ARTIFACT_ANOMALY',
  'METRIC_PITCH_VARIABILITY',
  'METRIC_NON_EXPRESSIVE_PAUSES',
  'METRIC_ABRUPT_PITCH_CHANGES',
  'METRIC_TERMINAL_CONTOUR',
  'METRIC_LUFS',
  'METRIC_VOLUME',
  'METRIC_VOCAL_FRY',
  'METRIC_SPEAKING_TIME_PERCENTAGE',
  'METRIC_SPECTROGRAM_PITCH_ANALYSIS',
  'METRIC_VOLUME_PITCH_MISALIGNMENT',
]);

/** Internal (never presented) description of the attached recording. */
export interface Recording {
  source: 'url' | 'base64' | 'upload';
  url?: string;
  upload_id?: string;
  format?: 'wav' | 'mp3';
  duration_seconds?: number;
  size_bytes?: number;
  attached_at: string;
}

export type WaveName = 'text' | 'audio';

export interface Wave {
  metric_ids: string[];
  state: 'COMPLETED' | 'AWAITING_AUDIO';
  completed_at: string | null;
}

/** Internal field names on the stored conversation (not schema properties, so never shown). */
export const RECORDING = 'recording';
export const WAVES = 'metric_waves';

const AUDIO_FIELDS = ['audio_url', 'audio', 'upload_id'] as const;

function given(body: Json, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, field) && body[field] !== undefined && body[field] !== null;
}

/**
 * The recording a submit or attach body carries, checked (400 on the offending field), or null for none.
 * Several of audio_url, audio and upload_id together are 400 (the generic validator already refuses
 * audio_url with upload_id on submit and both-or-neither on attach).
 */
export function recordingOf(ctx: RequestContext): Recording | null {
  const sent = AUDIO_FIELDS.filter((f) => given(ctx.body, f));
  if (sent.length > 1) throw invalid(sent[sent.length - 1]!, `send only one of ${sent.join(', ')}: a conversation has one recording`);
  const field = sent[0];
  if (field === undefined) return null;
  const value = ctx.body[field];
  if (field === 'audio_url') return { source: 'url', url: checkAudioUrl(value, field), attached_at: ctx.now };
  if (field === 'upload_id') return { source: 'upload', upload_id: String(value), attached_at: ctx.now };
  const audio = checkAudioBase64(value, field);
  return { source: 'base64', format: audio.format, duration_seconds: audio.seconds, size_bytes: audio.sizeBytes, attached_at: ctx.now };
}

/** The submit's metrics, each visible to the caller (404 on field `metrics` otherwise), split by wave. */
export function metricWaves(ctx: RequestContext): Record<WaveName, string[]> {
  const out: Record<WaveName, string[]> = { text: [], audio: [] };
  const ids = Array.isArray(ctx.body.metrics) ? ctx.body.metrics : [];
  for (const id of new Set(ids)) {
    const metric = findRecord(ctx, 'metric', id, { field: 'metrics' });
    const type = metric.data.metric_type;
    out[typeof type === 'string' && AUDIO_METRIC_TYPES.has(type) ? 'audio' : 'text'].push(String(id));
  }
  return out;
}

export function wavesOf(data: Json): Record<WaveName, Wave> {
  const stored = data[WAVES] as Partial<Record<WaveName, Wave>> | undefined; // the sandbox's own field, written only by setWaves()
  const empty = (): Wave => ({ metric_ids: [], state: 'AWAITING_AUDIO', completed_at: null });
  return { text: stored?.text ?? empty(), audio: stored?.audio ?? empty() };
}

/** Stores the waves and derives status and progress from them (no metric values: the sandbox has no scorer). */
export function setWaves(data: Json, waves: Record<WaveName, Wave>): void {
  setOwn(data, WAVES, clone(waves));
  const all = [waves.text, waves.audio];
  const total = all.reduce((n, w) => n + w.metric_ids.length, 0);
  const completed = all.reduce((n, w) => n + (w.state === 'COMPLETED' ? w.metric_ids.length : 0), 0);
  setOwn(data, 'progress', { total_metrics: total, completed_metrics: completed, failed_metrics: 0, in_progress_metrics: total - completed });
  setOwn(data, 'status', completed === total ? 'COMPLETED' : 'IN_PROGRESS');
  setOwn(data, 'metric_ids', [...waves.text.metric_ids, ...waves.audio.metric_ids]);
}

/** Queues the webhook delivery of one wave (published after the commit). */
export function raiseWave(ctx: RequestContext, record: StoredRecord, wave: WaveName): void {
  const waves = wavesOf(record.data);
  raiseEvent(ctx.runtime, {
    name: wave === 'text' ? 'conversation.submitted' : 'conversation.audio-attached',
    org: record.org,
    workspace: record.workspace,
    payload: {
      record: clone(record.data),
      wave,
      conversation_id: record.id,
      metric_ids: [...waves[wave].metric_ids],
      metric_values: {},
    },
  });
}

/** The success body of submit/attach, shaped as the route declares, without the transcript. */
export function answerWithoutTranscript(ctx: RequestContext, result: ActionResult): void {
  if (!result.record) return;
  const one = present(ctx.runtime.resource('conversation'), result.record);
  // metric_values and metric_outputs only appear on lists that ask for them (conversation-metric-values).
  delete one.transcript;
  delete one.metric_values;
  delete one.metric_outputs;
  const shape = ctx.route.success.shape;
  if (shape.kind === 'wrapped') {
    const body: Json = {};
    setOwn(body, shape.key, one);
    result.body = body;
  } else {
    result.body = one;
  }
}
