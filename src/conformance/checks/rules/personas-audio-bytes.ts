// Recordings for the audio checks, synthesised as bytes: a PCM WAV file whose duration is chosen exactly
// (duration = data bytes / byte rate) and an MP3 made of MPEG-1 Layer III frames (each frame 1152 samples).
// The seed's rule is "WAV or MP3, 5 s to 60 min, 200 MB max" (Conversation audio, Limits), so the checks
// need recordings just inside and just outside those bounds, and bytes that are neither format.

/** 8 kHz, mono, 8-bit PCM: 8000 bytes per second, so whole milliseconds map to whole bytes. */
const WAV_RATE = 8000;
const PCM_SILENCE = 0x80;

/** A PCM WAV recording of `seconds` (rounded down to whole samples). */
export function wavBytes(seconds: number): Buffer {
  const dataBytes = Math.floor(seconds * WAV_RATE);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // channels
  header.writeUInt32LE(WAV_RATE, 24); // sample rate
  header.writeUInt32LE(WAV_RATE, 28); // byte rate = sample rate x block align
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes, PCM_SILENCE)]);
}

/** MPEG-1 Layer III, 32 kbps, 32 kHz, mono, no CRC: 144-byte frames of 1152 samples (36 ms). */
const MP3_FRAME_HEADER = [0xff, 0xfb, 0x18, 0xc0];
const MP3_FRAME_BYTES = 144;
const MP3_FRAME_SECONDS = 1152 / 32000;

/** An MP3 recording of the fewest whole frames lasting at least `seconds` (or at most, with `floor`). */
export function mp3Bytes(seconds: number, round: 'up' | 'down' = 'up'): Buffer {
  const exact = seconds / MP3_FRAME_SECONDS;
  const frames = round === 'up' ? Math.ceil(exact) : Math.floor(exact);
  const frame = Buffer.alloc(MP3_FRAME_BYTES, 0);
  Buffer.from(MP3_FRAME_HEADER).copy(frame, 0);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** MPEG-2.5 Layer III, 8 kbps, 8 kHz, mono: 72-byte frames of 576 samples, so an hour is only 3.6 MB. */
export function lowRateMp3Bytes(seconds: number): Buffer {
  const frame = Buffer.alloc(72, 0);
  Buffer.from([0xff, 0xe3, 0x18, 0xc0]).copy(frame, 0);
  return Buffer.concat(Array.from({ length: Math.ceil(seconds / (576 / 8000)) }, () => frame));
}

export function base64(bytes: Buffer): string {
  return bytes.toString('base64');
}

/** Bytes that are neither WAV nor MP3 (plain text). */
export function notAudioBytes(): Buffer {
  return Buffer.from('this is a transcript, not a recording; '.repeat(200), 'utf8');
}
