// The audio rules shared by submit and attach (seed, "Conversation audio"): `audio_url` is an HTTPS URL or
// `s3://bucket/key`; base64 `audio` is a WAV or MP3 recording of 5 s to 60 min (both inclusive) and at most
// 200 MB, checked from its bytes. Every refusal is 400 INVALID_ARGUMENT naming the field.
//
// Decisions (the seed is silent):
// - A URL cannot be fetched in the sandbox (no network), so its format, duration and size cannot be checked:
//   an `audio_url` is accepted when its form is valid, whatever its path ends with (presigned URLs often have
//   no extension). Form: an absolute `https://` URL with a host and no whitespace or control characters; or
//   `s3://bucket/key` with a bucket name following the S3 general-purpose bucket naming rules (3-63 of a-z 0-9
//   . -, starting and ending with a letter or digit, no `..`, not an IPv4 address, none of the reserved
//   prefixes and suffixes) and a key of 1 to 1024 UTF-8 bytes without control characters (spaces are allowed in an S3 key, not in an
//   HTTPS URL).
// - `audio` is standard base64 (RFC 4648 section 4: A-Z a-z 0-9 + /, `=` padding optional) with no line
//   breaks, whitespace or `data:` prefix.
// - 200 MB is 200 MiB (209,715,200 bytes) of decoded audio; the size is checked from the base64 length before
//   anything is decoded.
import { invalid } from '../../errors.js';
import { inspectAudio, type AudioInfo } from './inspect.js';

export const MAX_AUDIO_BYTES = 200 * 1024 * 1024;
export const MIN_AUDIO_SECONDS = 5;
export const MAX_AUDIO_SECONDS = 60 * 60;

const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f]/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Why an S3 bucket name is not valid, or null when it is. */
export function bucketProblem(bucket: string): string | null {
  if (bucket.length < 3 || bucket.length > 63) return 'the bucket name must be 3 to 63 characters';
  if (!BUCKET.test(bucket)) return 'the bucket name may hold only a-z, 0-9, "." and "-", and must start and end with a letter or digit';
  if (bucket.includes('..')) return 'the bucket name may not contain two adjacent periods';
  if (IPV4.test(bucket)) return 'the bucket name may not be formatted as an IP address';
  if (RESERVED_PREFIXES.some((p) => bucket.startsWith(p)) || RESERVED_SUFFIXES.some((s) => bucket.endsWith(s))) {
    return 'the bucket name uses a reserved prefix or suffix';
  }
  return null;
}

/** Checks the form of an audio URL; throws 400 on `field`. */
export function checkAudioUrl(value: unknown, field = 'audio_url'): string {
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  if (CONTROL.test(value)) throw invalid(field, 'must not contain control characters');
  if (value.startsWith('s3://')) {
    const rest = value.slice('s3://'.length);
    const slash = rest.indexOf('/');
    if (slash < 0) throw invalid(field, 'must have the form s3://bucket/key');
    const bucket = rest.slice(0, slash);
    const key = rest.slice(slash + 1);
    const problem = bucketProblem(bucket);
    if (problem !== null) throw invalid(field, `must have the form s3://bucket/key: ${problem}`);
    if (key === '') throw invalid(field, 'must have the form s3://bucket/key: the key is empty');
    if (Buffer.byteLength(key, 'utf8') > 1024) throw invalid(field, 'must have the form s3://bucket/key: the key is longer than 1024 bytes');
    return value;
  }
  if (CONTROL_OR_SPACE.test(value)) throw invalid(field, 'must be an HTTPS URL without spaces (percent-encode them)');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(field, 'must be an HTTPS URL or s3://bucket/key');
  }
  if (url.protocol !== 'https:' || !value.toLowerCase().startsWith('https://')) throw invalid(field, 'must be an HTTPS URL or s3://bucket/key');
  if (url.hostname === '') throw invalid(field, 'must be an HTTPS URL with a host');
  return value;
}

function seconds(value: number): string {
  return `${Number(value.toFixed(3))} s`;
}

/** Decodes and checks a base64 recording; throws 400 on `field` saying why it is refused. */
export function checkAudioBase64(value: unknown, field = 'audio'): AudioInfo {
  if (typeof value !== 'string') throw invalid(field, 'must be a base64-encoded WAV or MP3 recording (a string)');
  if (value === '') throw invalid(field, 'is empty: a base64-encoded WAV or MP3 recording is needed');
  if (value.startsWith('data:')) throw invalid(field, 'must be plain base64, without a data: URL prefix');
  let pad = 0;
  while (pad < 2 && value.charCodeAt(value.length - 1 - pad) === 61 /* = */) pad++;
  const core = value.length - pad;
  if ((pad > 0 && value.length % 4 !== 0) || core % 4 === 1) throw invalid(field, 'must be valid base64: its length is not a whole number of bytes');
  const decodedBytes = Math.floor((core * 3) / 4);
  if (decodedBytes > MAX_AUDIO_BYTES) throw invalid(field, `is too large: ${decodedBytes} bytes, at most 200 MB (${MAX_AUDIO_BYTES} bytes) is accepted`);
  if (!BASE64.test(value)) throw invalid(field, 'must be valid base64 (A-Z, a-z, 0-9, "+", "/", "=" padding; no whitespace)');
  const bytes = Buffer.from(value, 'base64');
  let result;
  try {
    result = inspectAudio(bytes);
  } catch {
    // The inspector is written not to throw; should it ever, the recording is still refused as unreadable.
    result = { ok: false as const, problem: 'could not be read as a WAV or MP3 recording' };
  }
  if (!result.ok) throw invalid(field, `${result.problem}`);
  const audio = result.info;
  const kind = audio.format === 'wav' ? 'WAV' : 'MP3';
  if (audio.numerator < MIN_AUDIO_SECONDS * audio.denominator) {
    throw invalid(field, `is too short: the ${kind} recording lasts ${seconds(audio.seconds)}, at least ${MIN_AUDIO_SECONDS} s is needed`);
  }
  if (audio.numerator > MAX_AUDIO_SECONDS * audio.denominator) {
    throw invalid(field, `is too long: the ${kind} recording lasts ${seconds(audio.seconds)}, at most 60 min (${MAX_AUDIO_SECONDS} s) is accepted`);
  }
  return audio;
}
