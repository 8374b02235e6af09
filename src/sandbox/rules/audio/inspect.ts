// Reading a recording's format and duration from its bytes: WAV (RIFF/WAVE: duration = data bytes / byte
// rate) and MP3 (MPEG audio Layer III: ID3v2 tags skipped, frames walked). Written by hand for hostile input:
// every read is bounds-checked, nothing here throws, every loop advances and is bounded by the buffer's length
// (so the work is linear in the size of the recording), and a problem is returned as a sentence for the
// API's error detail.
//
// Decisions (the documentation only says "WAV or MP3"):
// - WAV: a little-endian `RIFF` file of form `WAVE` (RIFX and RF64 are refused) with a `fmt ` chunk and a
//   `data` chunk. For the linear codings (PCM, IEEE float, A-law, mu-law, and WAVE_FORMAT_EXTENSIBLE holding
//   one of them) the header must be consistent (block align = channels x bytes per sample, byte rate = sample
//   rate x block align), so a header cannot claim a duration its bytes do not have; for other codings the
//   declared average byte rate is used. The data size is the declared one, capped at the bytes actually
//   present (a streaming writer's 0 or 0xFFFFFFFF means "up to the end of the file").
// - MP3: MPEG-1, MPEG-2 or MPEG-2.5 Layer III only (MP1/MP2 are not MP3). Up to 16 leading ID3v2 tags are
//   skipped, then the first frame must start within 64 KiB and be followed by a consistent frame (same
//   version, layer and sample rate) or by the end of the file. Every complete frame is counted; a Xing/Info
//   or VBRI header frame is recognised and not counted (it carries no audio), and its frame count is not
//   trusted: walking the frames gives the duration the bytes really hold. Junk between frames is skipped by
//   resynchronising; a trailing ID3v1/APE/Lyrics3 tag or a truncated last frame ends the walk. Free-format
//   bitrate frames are not supported.

export type AudioFormat = 'wav' | 'mp3';

export interface AudioInfo {
  format: AudioFormat;
  /** The exact duration is numerator / denominator seconds (integers), so limits compare exactly. */
  numerator: number;
  denominator: number;
  /** Seconds, for display. */
  seconds: number;
  sizeBytes: number;
}

export type Inspection = { ok: true; info: AudioInfo } | { ok: false; problem: string };

const NOT_AUDIO = 'is not a WAV or MP3 recording';

function ascii(buf: Uint8Array, offset: number, length: number): string {
  if (offset < 0 || offset + length > buf.length) return '';
  let out = '';
  for (let i = 0; i < length; i++) out += String.fromCharCode(buf[offset + i]!);
  return out;
}

function u16le(buf: Uint8Array, offset: number): number {
  return buf[offset]! | (buf[offset + 1]! << 8);
}

function u32le(buf: Uint8Array, offset: number): number {
  return (buf[offset]! | (buf[offset + 1]! << 8) | (buf[offset + 2]! << 16)) + buf[offset + 3]! * 0x1000000;
}

function info(format: AudioFormat, numerator: number, denominator: number, sizeBytes: number): Inspection {
  return { ok: true, info: { format, numerator, denominator, seconds: numerator / denominator, sizeBytes } };
}

export function isWav(buf: Uint8Array): boolean {
  return ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 4) === 'WAVE';
}

// ---------------------------------------------------------------------------------------------- WAV

const LINEAR_CODINGS = new Set([1, 3, 6, 7]); // PCM, IEEE float, A-law, mu-law
const EXTENSIBLE = 0xfffe;
/** More chunks than any real file has; the loop is bounded by the buffer anyway (each step moves >= 8 bytes). */
const MAX_WAV_CHUNKS = 100_000;

export function inspectWav(buf: Uint8Array): Inspection {
  if (!isWav(buf)) return { ok: false, problem: NOT_AUDIO };
  let offset = 12;
  let fmt: { coding: number; channels: number; sampleRate: number; byteRate: number; blockAlign: number; bits: number } | null = null;
  let dataBytes: number | null = null;
  for (let chunks = 0; offset + 8 <= buf.length && chunks < MAX_WAV_CHUNKS; chunks++) {
    const id = ascii(buf, offset, 4);
    const size = u32le(buf, offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && fmt === null) {
      if (size < 16 || body + 16 > buf.length) return { ok: false, problem: 'is a WAV recording with a truncated fmt chunk' };
      let coding = u16le(buf, body);
      if (coding === EXTENSIBLE && size >= 40 && body + 26 <= buf.length) coding = u16le(buf, body + 24);
      fmt = {
        coding,
        channels: u16le(buf, body + 2),
        sampleRate: u32le(buf, body + 4),
        byteRate: u32le(buf, body + 8),
        blockAlign: u16le(buf, body + 12),
        bits: u16le(buf, body + 14),
      };
    } else if (id === 'data' && dataBytes === null) {
      const available = buf.length - body;
      dataBytes = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
      if (fmt !== null) break;
    }
    offset = body + size + (size & 1);
  }
  if (fmt === null) return { ok: false, problem: 'is a WAV recording without a fmt chunk' };
  if (dataBytes === null) return { ok: false, problem: 'is a WAV recording without a data chunk' };
  if (fmt.channels < 1 || fmt.sampleRate < 1 || fmt.byteRate < 1 || fmt.blockAlign < 1) {
    return { ok: false, problem: 'is a WAV recording whose fmt chunk declares zero channels, sample rate, byte rate or block size' };
  }
  if (LINEAR_CODINGS.has(fmt.coding)) {
    const expectedAlign = fmt.channels * Math.ceil(fmt.bits / 8);
    if (fmt.bits < 1 || fmt.blockAlign !== expectedAlign || fmt.byteRate !== fmt.sampleRate * fmt.blockAlign) {
      return { ok: false, problem: 'is a WAV recording whose fmt chunk is inconsistent (byte rate must be sample rate x channels x bytes per sample)' };
    }
  }
  return info('wav', dataBytes, fmt.byteRate, buf.length);
}

// ---------------------------------------------------------------------------------------------- MP3

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, -1];
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, -1];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};
const MAX_LEADING_JUNK = 64 * 1024;
const MAX_ID3_TAGS = 16;

interface FrameHeader {
  version: number; // 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5
  sampleRate: number;
  length: number;
  samples: number;
  mono: boolean;
}

/** The Layer III frame header at `offset`, or null when the bytes there are not one. */
export function frameHeader(buf: Uint8Array, offset: number): FrameHeader | null {
  if (offset < 0 || offset + 4 > buf.length) return null;
  const b1 = buf[offset + 1]!;
  const b2 = buf[offset + 2]!;
  const b3 = buf[offset + 3]!;
  if (buf[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3;
  const layer = (b1 >> 1) & 3;
  if (version === 1 || layer !== 1) return null; // reserved version; not Layer III
  const kbps = (version === 3 ? BITRATES_V1_L3 : BITRATES_V2_L3)[b2 >> 4]!;
  const sampleRate = SAMPLE_RATES[version]![(b2 >> 2) & 3];
  if (kbps <= 0 || sampleRate === undefined || (b3 & 3) === 2) return null; // free format, bad bitrate, reserved rate or emphasis
  const padding = (b2 >> 1) & 1;
  const length = Math.floor(((version === 3 ? 144000 : 72000) * kbps) / sampleRate) + padding;
  return { version, sampleRate, length, samples: version === 3 ? 1152 : 576, mono: b3 >> 6 === 3 };
}

function consistent(a: FrameHeader, b: FrameHeader): boolean {
  return a.version === b.version && a.sampleRate === b.sampleRate;
}

/** A frame at `offset` that fits, followed by a consistent frame or by the end of the buffer. */
function frameStartsHere(buf: Uint8Array, offset: number, like: FrameHeader | null): FrameHeader | null {
  const h = frameHeader(buf, offset);
  if (!h || (like && !consistent(h, like))) return null;
  const end = offset + h.length;
  if (end > buf.length) return null;
  if (end === buf.length) return h;
  const next = frameHeader(buf, end);
  return next && consistent(h, next) ? h : null;
}

/** Xing/Info (at the end of the side information) or VBRI (32 bytes after the header) marks a header frame. */
function isInfoFrame(buf: Uint8Array, offset: number, h: FrameHeader): boolean {
  const side = h.version === 3 ? (h.mono ? 17 : 32) : h.mono ? 9 : 17;
  const tag = ascii(buf, offset + 4 + side, 4);
  return tag === 'Xing' || tag === 'Info' || ascii(buf, offset + 36, 4) === 'VBRI';
}

function isTrailer(buf: Uint8Array, offset: number): boolean {
  const three = ascii(buf, offset, 3);
  return three === 'TAG' || three === 'ID3' || ascii(buf, offset, 8) === 'APETAGEX' || ascii(buf, offset, 6) === 'LYRICS';
}

/** Bytes taken by the ID3v2 tags at the start, or -1 when a tag is malformed. */
function id3Length(buf: Uint8Array): number {
  let offset = 0;
  for (let i = 0; i < MAX_ID3_TAGS && offset + 10 <= buf.length && ascii(buf, offset, 3) === 'ID3'; i++) {
    const flags = buf[offset + 5]!;
    let size = 0;
    for (let k = 6; k < 10; k++) {
      const b = buf[offset + k]!;
      if (b & 0x80) return -1; // sizes are syncsafe: 7 bits per byte
      size = size * 128 + b;
    }
    offset += 10 + size + (flags & 0x10 ? 10 : 0);
  }
  return offset;
}

export function inspectMp3(buf: Uint8Array): Inspection {
  const start = id3Length(buf);
  const tagged = ascii(buf, 0, 3) === 'ID3';
  if (start < 0) return { ok: false, problem: 'is an MP3 recording with a malformed ID3 tag' };
  let first = -1;
  let h0: FrameHeader | null = null;
  const scanEnd = Math.min(buf.length, start + MAX_LEADING_JUNK);
  for (let p = start; p < scanEnd; p++) {
    h0 = frameStartsHere(buf, p, null);
    if (h0) {
      first = p;
      break;
    }
  }
  if (h0 === null || first < 0) return { ok: false, problem: tagged ? 'is an MP3 recording without MPEG audio frames' : NOT_AUDIO };

  let frames = 0;
  let p = first;
  if (isInfoFrame(buf, p, h0)) p += h0.length;
  while (p + 4 <= buf.length) {
    const h = frameHeader(buf, p);
    if (h && consistent(h, h0) && p + h.length <= buf.length) {
      frames++;
      p += h.length;
      continue;
    }
    if (isTrailer(buf, p) || (h && p + h.length > buf.length)) break;
    // Junk between frames: resynchronise on the next frame that is followed by another one (or the end).
    // The byte test first keeps the scan cheap; the full check (two frames) only runs on a sync of h0's version.
    const syncByte = 0xe0 | (h0.version << 3);
    let q = p + 1;
    while (q + 4 <= buf.length && !(buf[q] === 0xff && (buf[q + 1]! & 0xf8) === syncByte && frameStartsHere(buf, q, h0))) q++;
    p = q;
  }
  return info('mp3', frames * h0.samples, h0.sampleRate, buf.length);
}

/** WAV by its RIFF/WAVE magic, else MP3 (ID3 tag or a frame sync near the start), else not audio. */
export function inspectAudio(buf: Uint8Array): Inspection {
  if (isWav(buf)) return inspectWav(buf);
  const magic = ascii(buf, 0, 4);
  if ((magic === 'RIFX' || magic === 'RF64') && ascii(buf, 8, 4) === 'WAVE') {
    return { ok: false, problem: 'is a big-endian (RIFX) or RF64 WAV recording; only RIFF WAV is accepted' };
  }
  return inspectMp3(buf);
}
