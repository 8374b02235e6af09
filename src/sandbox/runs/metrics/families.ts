// Which evaluator scores each metric type of the spec (MetricType): the one table. Typed by the generated
// MetricType, so a type added to the spec without a family here fails tsc.
import type { MetricType } from '../../../../generated/client/types.js';
import type { JudgedKind } from './judged.js';

export type Family =
  | { kind: 'judged'; judge: JudgedKind }
  | {
      kind: 'computed';
      by: 'regex' | 'sql' | 'pause' | 'latency' | 'speaking-time' | 'words-per-message' | 'loops' | 'metadata-field' | 'tool-call' | 'tool-call-rate' | 'end-reason' | 'derived-aggregate' | 'derived-strict';
    }
  | { kind: 'unavailable'; needs: 'audio' | 'traces' };

const judged = (judge: JudgedKind): Family => ({ kind: 'judged', judge });
const computed = (by: Extract<Family, { kind: 'computed' }>['by']): Family => ({ kind: 'computed', by });
const audio: Family = { kind: 'unavailable', needs: 'audio' };
const traces: Family = { kind: 'unavailable', needs: 'traces' };

export const METRIC_FAMILIES: Record<MetricType, Family> = {
  METRIC_LLM_BINARY: judged('binary'),
  METRIC_AGENT_JUDGE: judged('binary'),
  METRIC_AUDIO_LLM_BINARY: judged('binary'),
  METRIC_USER_FRUSTRATION: judged('binary'),
  METRIC_AGENT_REFUSAL: judged('binary'),
  METRIC_CUSTOM_AGENT_FAILS_TO_RESPOND: judged('binary'),
  METRIC_CUSTOM_AGENT_NEEDS_REPROMPTING: judged('binary'),
  METRIC_MATCH_EXPECTED_OUTPUT: judged('binary'),
  METRIC_IVR_FLOW_ADHERENCE: judged('binary'),
  METRIC_CATEGORICAL: judged('categorical'),
  METRIC_AGENT_JUDGE_CATEGORICAL: judged('categorical'),
  METRIC_AUDIO_LLM_CATEGORICAL: judged('categorical'),
  METRIC_NUMERICAL_LLM_JUDGE: judged('numerical'),
  METRIC_AGENT_JUDGE_NUMERICAL: judged('numerical'),
  METRIC_AUDIO_LLM_NUMERICAL: judged('numerical'),
  METRIC_COMPOSITE_EVALUATION: judged('composite'),
  METRIC_TRANSCRIPT_REGEX: computed('regex'),
  METRIC_SQL_FLOAT: computed('sql'),
  METRIC_PAUSE_ANALYSIS: computed('pause'),
  METRIC_LLM_TTFB: computed('latency'),
  METRIC_SPEAKING_TIME_PERCENTAGE: computed('speaking-time'),
  METRIC_WORDS_PER_MESSAGE_WITH_THRESHOLD: computed('words-per-message'),
  METRIC_LOOP_DETECTION: computed('loops'),
  METRIC_METADATA_FIELD: computed('metadata-field'),
  METRIC_TOOLCALL: computed('tool-call'),
  METRIC_TOOL_CALL_RATE: computed('tool-call-rate'),
  METRIC_CUSTOM_END_REASON: computed('end-reason'),
  METRIC_DERIVED_AGGREGATE: computed('derived-aggregate'),
  METRIC_DERIVED_STRICT_LOGIC: computed('derived-strict'),
  METRIC_TTS_TTFB: audio,
  METRIC_STT_TTFB: audio,
  METRIC_VOICE_QUALITY: audio,
  METRIC_PHONEME_STRETCH: audio,
  METRIC_SYLLABLE_RATE: audio,
  METRIC_CODEC_ARTIFACT: audio,
  METRIC_CLIPPING_ARTIFACT: audio,
  METRIC_DROPOUT_ARTIFACT: audio,
  METRIC_TIMBRE_DRIFT: audio,
  METRIC_SPEECH_ARTIFACT_ANOMALY: audio,
  METRIC_PITCH_VARIABILITY: audio,
  METRIC_NON_EXPRESSIVE_PAUSES: audio,
  METRIC_ABRUPT_PITCH_CHANGES: audio,
  METRIC_TERMINAL_CONTOUR: audio,
  METRIC_LUFS: audio,
  METRIC_VOLUME: audio,
  METRIC_VOCAL_FRY: audio,
  METRIC_CUSTOM_AUDIO_FREQUENCY: audio,
  METRIC_CUSTOM_AUDIO_SENTIMENT: audio,
  METRIC_SPECTROGRAM_PITCH_ANALYSIS: audio,
  METRIC_VOLUME_PITCH_MISALIGNMENT: audio,
  METRIC_TRACE_AUDIO_UPLOAD_STT_WER: audio,
  METRIC_LLM_TOKEN_USAGE: traces,
  METRIC_TRACE_STT_WER: traces,
  METRIC_CUSTOM_TRACE: traces,
};

/** The family of a stored metric's type; an unknown type (a record loaded by hand) is judged binary. */
export function familyOf(metricType: unknown): Family {
  return (METRIC_FAMILIES as Record<string, Family>)[String(metricType)] ?? judged('binary');
}
