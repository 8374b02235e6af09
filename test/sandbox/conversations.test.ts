// Uploaded conversations through the generated client against the in-process sandbox: submit on the
// canonical and the deprecated path, audio attach (exactly one of audio_url / audio; URL forms; WAV and MP3
// recordings checked from their bytes: format, 5 s to 60 min, 200 MB), 409 on a second attach or after a
// submit with audio, isolation, the metric waves, and the two webhook deliveries (wave text, then audio).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../generated/client/index.js';
import { inspectAudio } from '../../src/sandbox/rules/audio/inspect.js';
import { checkAudioBase64, MAX_AUDIO_BYTES } from '../../src/sandbox/rules/audio/validate.js';
import { ApiFailure } from '../../src/sandbox/errors.js';
import { pageOf } from '../support/conversation-page.js';
import { failure, startHarness, type Harness } from '../support/sandbox.js';

// ------------------------------------------------------------------------------------- recordings

/** A PCM WAV file: 44-byte header + `dataBytes` of 8-bit silence; header fields can be overridden to lie. */
function wav(dataBytes: number, o: { sampleRate?: number; channels?: number; bits?: number; byteRate?: number; declaredData?: number } = {}): Buffer {
  const sampleRate = o.sampleRate ?? 8000;
  const channels = o.channels ?? 1;
  const bits = o.bits ?? 8;
  const blockAlign = channels * Math.ceil(bits / 8);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(o.byteRate ?? sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(o.declaredData ?? dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes, 0x80)]);
}

/** MPEG-2.5 Layer III, 8 kbps, 8 kHz, mono: 72-byte frames of 576 samples (0.072 s each). */
const MPEG25_8K = Buffer.from([0xff, 0xe3, 0x18, 0xc0]);
/** MPEG-1 Layer III, 128 kbps, 44.1 kHz, stereo: 417-byte frames of 1152 samples (~0.0261 s each). */
const MPEG1_128K = Buffer.from([0xff, 0xfb, 0x90, 0x00]);

function frame(header: Buffer, length: number, payload?: (f: Buffer) => void): Buffer {
  const f = Buffer.alloc(length);
  header.copy(f, 0);
  payload?.(f);
  return f;
}

function mp3(frames: number, o: { header?: Buffer; length?: number; id3?: boolean; xingClaimsFrames?: number } = {}): Buffer {
  const header = o.header ?? MPEG25_8K;
  const length = o.length ?? 72;
  const one = frame(header, length);
  const parts: Buffer[] = [];
  if (o.id3) {
    const tag = Buffer.alloc(10 + 300);
    tag.write('ID3', 0, 'ascii');
    tag[3] = 4;
    tag[8] = 300 >> 7; // syncsafe size 300
    tag[9] = 300 & 0x7f;
    parts.push(tag);
  }
  if (o.xingClaimsFrames !== undefined) {
    // A Xing header frame (MPEG-1 stereo: after 32 bytes of side information); it carries no audio.
    parts.push(
      frame(header, length, (f) => {
        f.write('Xing', 36, 'ascii');
        f.writeUInt32BE(1, 40); // flags: frame count present
        f.writeUInt32BE(o.xingClaimsFrames!, 44);
      }),
    );
  }
  parts.push(Buffer.alloc(frames * length));
  const out = Buffer.concat(parts);
  const start = out.length - frames * length;
  for (let i = 0; i < frames; i++) one.copy(out, start + i * length, 0, 4);
  return out;
}

const b64 = (bytes: Buffer): string => bytes.toString('base64');

// ------------------------------------------------------------------------------------- harness

let h: Harness;
const deliveries: { url: string; headers: Record<string, string>; body: Record<string, unknown> }[] = [];
beforeAll(async () => {
  h = await startHarness({
    deliveryFetch: async (url, init) => {
      deliveries.push({ url, headers: init.headers, body: JSON.parse(init.body) as Record<string, unknown> });
      return { status: 200 };
    },
  });
});
afterAll(async () => h.close());

async function expect400(p: Promise<unknown>, field: string, description?: RegExp): Promise<void> {
  const error = await failure(p);
  expect(error.status).toBe(400);
  expect(error.code).toBe('INVALID_ARGUMENT');
  const detail = error.details.find((d) => d.field === field);
  expect(detail, JSON.stringify(error.details)).toBeDefined();
  if (description) expect(detail!.description).toMatch(description);
}

const TRANSCRIPT = [
  { role: 'user' as const, content: 'I want to move my appointment.' },
  { role: 'assistant' as const, content: 'Sure, to which day?' },
];

async function submitted(client: Client = h.client): Promise<string> {
  const { uploaded_conversation } = await client.conversations.submitUploadedConversation({ transcript: TRANSCRIPT });
  return uploaded_conversation.conversation_id;
}

// ------------------------------------------------------------------------------------- tests

describe('submit', () => {
  it('creates a conversation on the canonical path: {uploaded_conversation}, no audio, transcript only on get', async () => {
    const { uploaded_conversation: c } = await h.client.conversations.submitUploadedConversation({
      transcript: TRANSCRIPT,
      external_conversation_id: 'call-42',
      metadata: { queue: 'billing' },
      tags: ['billing'],
    });
    expect(c.conversation_id).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(c.name).toBe(`conversations/${c.conversation_id}`);
    expect(c.has_audio).toBe(false);
    expect(c.external_conversation_id).toBe('call-42');
    expect(c.metadata).toEqual({ queue: 'billing' });
    expect(c).not.toHaveProperty('transcript');
    const got = await h.client.conversations.getUploadedConversation(c.conversation_id);
    expect(got.uploaded_conversation.transcript).toEqual(TRANSCRIPT);
    expect(got.uploaded_conversation.has_audio).toBe(false);
    const listed = pageOf(await h.client.conversations.listUploadedConversations({ query: { page_size: 100 } })).uploaded_conversations;
    const mine = listed.find((x) => x.conversation_id === c.conversation_id);
    expect(mine).toMatchObject({ conversation_id: c.conversation_id, external_conversation_id: 'call-42' });
    // The transcript is answered by the single get only (facts 2.2).
    expect(mine).not.toHaveProperty('transcript');
    expect((await h.client.conversations.getUploadedConversation(c.conversation_id)).uploaded_conversation.transcript).toEqual(TRANSCRIPT);
  });

  it('is served on the deprecated POST /conversations:submit, answering {conversation}, and GET /conversations/{id}', async () => {
    const { conversation } = await h.client.conversations.submitConversation({ transcript: TRANSCRIPT });
    expect(conversation.has_audio).toBe(false);
    const legacy = await h.client.conversations.getConversation(conversation.conversation_id);
    expect(legacy.conversation.conversation_id).toBe(conversation.conversation_id);
    const canonical = await h.client.conversations.getUploadedConversation(conversation.conversation_id);
    expect(canonical.uploaded_conversation.conversation_id).toBe(conversation.conversation_id);
  });

  it('ignores server fields sent in the body', async () => {
    const body = { transcript: TRANSCRIPT, status: 'FAILED', has_audio: true, name: 'conversations/forged', create_time: '2001-01-01T00:00:00Z' };
    const { uploaded_conversation: c } = await h.client.conversations.submitUploadedConversation(body as never);
    expect(c.has_audio).toBe(false);
    expect(c.status).not.toBe('FAILED');
    expect(c.name).toBe(`conversations/${c.conversation_id}`);
    expect(c.create_time).not.toBe('2001-01-01T00:00:00Z');
  });

  it('checks an audio_url sent with the submit like an attach, and a conversation submitted with audio refuses an attach (409)', async () => {
    await expect400(h.client.conversations.submitUploadedConversation({ transcript: TRANSCRIPT, audio_url: 'http://storage.example/a.wav' }), 'audio_url');
    await expect400(h.client.conversations.submitUploadedConversation({ audio_url: 's3://Bad_Bucket/a.wav' }), 'audio_url', /bucket/);
    const { uploaded_conversation: c } = await h.client.conversations.submitUploadedConversation({ transcript: TRANSCRIPT, audio_url: 'https://storage.example/calls/a.wav' });
    expect(c.has_audio).toBe(true);
    for (const attach of [h.client.conversations.attachUploadedConversationAudio, h.client.conversations.attachConversationAudio]) {
      const error = await failure(attach(c.conversation_id, { audio: b64(wav(40_000)) }));
      expect(error.status).toBe(409);
      expect(error.code).toBe('ALREADY_EXISTS');
    }
  });

  it('checks base64 audio sent with the submit from its bytes, and counts it as the recording', async () => {
    await expect400(h.client.conversations.submitUploadedConversation({ transcript: TRANSCRIPT, audio: b64(wav(8_000)) }), 'audio', /too short/);
    await expect400(h.client.conversations.submitConversation({ audio: 'not base64!' }), 'audio', /base64/);
    for (const both of [
      { transcript: TRANSCRIPT, audio: b64(wav(40_000)), audio_url: 'https://storage.example/a.wav' },
      { audio: b64(wav(40_000)), upload_id: `upl_${'0'.repeat(26)}` },
    ]) {
      const error = await failure(h.client.conversations.submitUploadedConversation(both));
      expect(error.status).toBe(400);
      expect(error.code).toBe('INVALID_ARGUMENT');
    }
    const { uploaded_conversation: c } = await h.client.conversations.submitUploadedConversation({ audio: b64(wav(40_000)) });
    expect(c.has_audio).toBe(true);
    expect((await failure(h.client.conversations.attachUploadedConversationAudio(c.conversation_id, { audio_url: 'https://storage.example/b.wav' }))).status).toBe(409);
  });

  it('answers 404 for an unknown agent_id or metric', async () => {
    const agent = await failure(h.client.conversations.submitUploadedConversation({ transcript: TRANSCRIPT, agent_id: 'A'.repeat(22) }));
    expect(agent.status).toBe(404);
    expect(agent.details[0]?.field).toBe('agent_id');
    const metric = await failure(h.client.conversations.submitUploadedConversation({ transcript: TRANSCRIPT, metrics: ['M'.repeat(22)] }));
    expect(metric.status).toBe(404);
    expect(metric.details[0]?.field).toBe('metrics');
  });
});

describe('attach audio', () => {
  it('attaches an HTTPS URL on the canonical path; a second attach is 409 ALREADY_EXISTS and keeps the first', async () => {
    const id = await submitted();
    const { uploaded_conversation: c } = await h.client.conversations.attachUploadedConversationAudio(id, { audio_url: 'https://bucket.s3.amazonaws.com/calls/1.wav?X-Amz-Signature=abc' });
    expect(c.has_audio).toBe(true);
    expect(c).not.toHaveProperty('transcript');
    expect((await h.client.conversations.getUploadedConversation(id)).uploaded_conversation.has_audio).toBe(true);
    for (const body of [{ audio_url: 'https://storage.example/other.wav' }, { audio: b64(wav(40_000)) }]) {
      const error = await failure(h.client.conversations.attachUploadedConversationAudio(id, body));
      expect(error.status).toBe(409);
      expect(error.code).toBe('ALREADY_EXISTS');
    }
  });

  it('is served on the deprecated PATCH /conversations/{id}, answering {conversation}', async () => {
    const id = await submitted();
    const { conversation } = await h.client.conversations.attachConversationAudio(id, { audio_url: 's3://call-recordings/2026/11/call 1.mp3' });
    expect(conversation.has_audio).toBe(true);
    expect((await failure(h.client.conversations.attachConversationAudio(id, { audio_url: 's3://call-recordings/again.mp3' }))).status).toBe(409);
  });

  it('needs exactly one of audio_url and audio (400 for both or neither)', async () => {
    const id = await submitted();
    for (const body of [{}, { audio_url: 'https://storage.example/a.wav', audio: b64(wav(40_000)) }]) {
      const error = await failure(h.client.conversations.attachUploadedConversationAudio(id, body));
      expect(error.status).toBe(400);
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details.map((d) => d.field).join(',')).toMatch(/audio/);
    }
    expect((await h.client.conversations.getUploadedConversation(id)).uploaded_conversation.has_audio).toBe(false);
  });

  it.each([
    ['http://storage.example/a.wav', /https|pattern/i],
    ['ftp://storage.example/a.wav', /https|pattern/i],
    ['storage.example/a.wav', /https|pattern/i],
    ['https://', /https|host/i],
    ['https://storage example.com/a.wav', /space/],
    ['s3://bucket-only', /bucket\/key|pattern/],
    ['s3://ab/key.wav', /3 to 63/],
    ['s3://Upper-Case/key.wav', /a-z/],
    ['s3://my..bucket/key.wav', /adjacent/],
    ['s3://192.168.10.1/key.wav', /IP address/],
    ['s3://-leading-dash/key.wav', /start and end/],
  ])('refuses audio_url %s with 400 on field audio_url', async (url, why) => {
    const id = await submitted();
    await expect400(h.client.conversations.attachUploadedConversationAudio(id, { audio_url: url }), 'audio_url', why);
  });

  it.each(['https://storage.example/recording', 'https://cdn.example.com:8443/a/b.MP3?sig=1', 's3://my.bucket-01/folder/call.wav', 's3://abc/k'])(
    'accepts audio_url %s (the sandbox cannot fetch it: its form is what is checked)',
    async (url) => {
      const id = await submitted();
      expect((await h.client.conversations.attachUploadedConversationAudio(id, { audio_url: url })).uploaded_conversation.has_audio).toBe(true);
    },
  );

  it('answers 404 for another organization\'s conversation, and for a deleted one', async () => {
    const id = await submitted();
    const other = h.clientFor((await h.control.createOrganization('Other')).api_key.key);
    for (const call of [
      other.conversations.getUploadedConversation(id),
      other.conversations.getConversation(id),
      other.conversations.attachUploadedConversationAudio(id, { audio_url: 'https://storage.example/a.wav' }),
      other.conversations.attachConversationAudio(id, { audio_url: 'https://storage.example/a.wav' }),
      other.conversations.deleteUploadedConversation(id),
    ]) {
      const error = await failure(call);
      expect(error.status).toBe(404);
      expect(JSON.stringify(error.body)).not.toContain(id);
    }
    expect(pageOf(await other.conversations.listUploadedConversations()).uploaded_conversations).toEqual([]);
    expect((await h.client.conversations.getUploadedConversation(id)).uploaded_conversation.has_audio).toBe(false);

    expect(await h.client.conversations.deleteUploadedConversation(id)).toEqual({});
    expect((await failure(h.client.conversations.getUploadedConversation(id))).status).toBe(404);
    expect((await failure(h.client.conversations.attachUploadedConversationAudio(id, { audio_url: 'https://storage.example/a.wav' }))).status).toBe(404);
    expect((await failure(h.client.conversations.deleteUploadedConversation(id))).status).toBe(404);
    const ids = pageOf(await h.client.conversations.listUploadedConversations({ query: { page_size: 100 } })).uploaded_conversations.map((c) => c.conversation_id);
    expect(ids).not.toContain(id);
  });
});

describe('base64 audio, checked from the bytes', () => {
  const attach = async (bytes: Buffer | string) => {
    const id = await submitted();
    return h.client.conversations.attachUploadedConversationAudio(id, { audio: typeof bytes === 'string' ? bytes : b64(bytes) });
  };

  it('accepts WAV of exactly 5 s and refuses 4.999 s (8 kHz 8-bit mono: 8000 bytes a second)', async () => {
    expect((await attach(wav(40_000))).uploaded_conversation.has_audio).toBe(true);
    await expect400(attach(wav(39_992)), 'audio', /too short.*4\.999 s.*5 s/);
  });

  it('accepts WAV of exactly 60 min and refuses one byte more (1 kHz 8-bit mono: 1000 bytes a second)', async () => {
    expect((await attach(wav(3_600_000, { sampleRate: 1000 }))).uploaded_conversation.has_audio).toBe(true);
    await expect400(attach(wav(3_600_001, { sampleRate: 1000 })), 'audio', /too long.*60 min/);
  });

  it('takes the WAV duration from the bytes present, not from a header that claims more', async () => {
    await expect400(attach(wav(8_000, { declaredData: 80_000 })), 'audio', /too short/);
    await expect400(attach(wav(40_000, { byteRate: 100 })), 'audio', /inconsistent/);
    await expect400(attach(wav(40_000).subarray(0, 36)), 'audio', /data chunk/);
  });

  it('accepts a 16-bit stereo WAV at 44.1 kHz (176400 bytes a second)', async () => {
    expect((await attach(wav(176_400 * 5, { sampleRate: 44_100, channels: 2, bits: 16 }))).uploaded_conversation.has_audio).toBe(true);
  });

  it('walks MP3 frames: 70 frames (5.04 s) are enough, 69 (4.968 s) are too short', async () => {
    expect((await attach(mp3(70))).uploaded_conversation.has_audio).toBe(true);
    await expect400(attach(mp3(69)), 'audio', /too short.*MP3/);
  });

  it('accepts MP3 of exactly 60 min (50000 frames) and refuses 50001', async () => {
    expect((await attach(mp3(50_000))).uploaded_conversation.has_audio).toBe(true);
    await expect400(attach(mp3(50_001)), 'audio', /too long/);
  });

  it('skips an ID3v2 tag and does not count a Xing header frame, nor trust its frame count', async () => {
    const mpeg1 = { header: MPEG1_128K, length: 417, id3: true };
    expect((await attach(mp3(192, { ...mpeg1, xingClaimsFrames: 192 }))).uploaded_conversation.has_audio).toBe(true); // 5.016 s
    await expect400(attach(mp3(191, { ...mpeg1, xingClaimsFrames: 100_000 })), 'audio', /too short.*4\.989 s/);
  });

  it.each([
    ['garbage bytes', b64(Buffer.from('not audio at all, just some text '.repeat(5_000))), /not a WAV or MP3/],
    ['an Ogg file', b64(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(50_000, 1)])), /not a WAV or MP3/],
    ['a RIFF AVI file', b64(Buffer.concat([Buffer.from('RIFF\x00\x00\x00\x00AVI LIST', 'latin1'), Buffer.alloc(50_000, 1)])), /not a WAV or MP3/],
    ['an ID3 tag with no frames', b64(Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 10]), Buffer.alloc(5_000, 1)])), /MP3.*frames/],
    ['invalid base64', '@@@@not-base64', /base64/],
    ['base64 with a data: prefix', `data:audio/wav;base64,${b64(wav(40_000))}`, /data:/],
    ['base64 with line breaks', b64(wav(40_000)).replace(/(.{76})/g, '$1\n'), /base64/],
    ['a truncated base64 length', 'QUJDR', /base64/],
    ['an empty string', '', /empty/],
  ])('refuses %s with 400 on field audio', async (_label, value, why) => {
    await expect400(attach(value), 'audio', why);
  });

  it('never fails on hostile bytes other than with 400 on field audio (truncated, bit-flipped and random recordings)', () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const bases = [wav(40_000), mp3(100, { id3: true }), mp3(80, { header: MPEG1_128K, length: 417, xingClaimsFrames: 80 })];
    for (let i = 0; i < 1500; i++) {
      const base = bases[i % bases.length]!;
      const bytes = Buffer.from(base.subarray(0, 1 + Math.floor(random() * base.length)));
      for (let k = 0; k < 1 + random() * 16; k++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      const result = inspectAudio(bytes);
      if (result.ok) expect(result.info.seconds).toBeGreaterThanOrEqual(0);
      else expect(result.problem).toMatch(/\S/);
      try {
        checkAudioBase64(b64(bytes));
      } catch (e) {
        expect(e).toBeInstanceOf(ApiFailure);
        expect((e as ApiFailure).details[0]?.field).toBe('audio');
      }
    }
  });

  it('refuses more than 200 MB of audio, from the base64 length, before decoding anything', () => {
    const justOver = 'A'.repeat(Math.ceil(((MAX_AUDIO_BYTES + 1) * 4) / 3) + 2);
    let error: unknown;
    try {
      checkAudioBase64(justOver);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiFailure);
    expect((error as ApiFailure).status).toBe(400);
    expect((error as ApiFailure).details[0]).toMatchObject({ field: 'audio', description: expect.stringMatching(/too large.*200 MB/) });
  });
});

describe('metric waves and webhook deliveries', () => {
  let textMetric: string;
  let audioMetric: string;
  beforeAll(async () => {
    const loaded = await h.control.loadFixtures(h.sandbox.organizationId, [
      { kind: 'metric', data: { metric_name: 'Resolved', metric_type: 'METRIC_LLM_BINARY' } },
      { kind: 'metric', data: { metric_name: 'Tone of voice', metric_type: 'METRIC_AUDIO_LLM_BINARY' } },
    ]);
    textMetric = loaded[0]!.id;
    audioMetric = loaded[1]!.id;
    await h.client.webhooks.createWebhook({ type: 'job_complete', url: 'https://hooks.example/jobs', auth_token: 'tok-123' });
  });

  const wavesOf = (conversationId: string) => deliveries.filter((d) => d.body.conversation_id === conversationId).map((d) => d.body.wave);

  it('runs the text wave at submit and the audio wave at attach: status and progress follow', async () => {
    const { uploaded_conversation: c } = await h.client.conversations.submitUploadedConversation({ transcript: TRANSCRIPT, metrics: [textMetric, audioMetric] });
    expect(c.metric_ids).toEqual([textMetric, audioMetric]);
    expect(c.status).toBe('IN_PROGRESS');
    expect(c.progress).toEqual({ total_metrics: 2, completed_metrics: 1, failed_metrics: 0, in_progress_metrics: 1 });
    const { uploaded_conversation: after } = await h.client.conversations.attachUploadedConversationAudio(c.conversation_id, { audio: b64(mp3(100)) });
    expect(after.status).toBe('COMPLETED');
    expect(after.progress).toEqual({ total_metrics: 2, completed_metrics: 2, failed_metrics: 0, in_progress_metrics: 0 });
  });

  it('delivers the text wave after submit, then the audio wave by a separate call after attach', async () => {
    const id = await submitted();
    await h.sandbox.idle();
    expect(wavesOf(id)).toEqual(['text']);
    const text = deliveries.find((d) => d.body.conversation_id === id)!;
    expect(text.url).toBe('https://hooks.example/jobs');
    expect(text.body).toMatchObject({ event: 'job_complete', wave: 'text', conversation_id: id });
    expect(text.headers['X-Webhook-Token']).toBe('tok-123');

    await h.client.conversations.attachConversationAudio(id, { audio_url: 'https://storage.example/late.wav' });
    await h.sandbox.idle();
    expect(wavesOf(id)).toEqual(['text', 'audio']);
    const [first, second] = deliveries.filter((d) => d.body.conversation_id === id);
    expect(second!.body.delivery_id).not.toBe(first!.body.delivery_id);

    // A refused attach (409) delivers nothing more.
    await failure(h.client.conversations.attachConversationAudio(id, { audio_url: 'https://storage.example/again.wav' }));
    await h.sandbox.idle();
    expect(wavesOf(id)).toEqual(['text', 'audio']);
  });

  it('delivers both waves, text first, when the submit carries the recording', async () => {
    const { conversation } = await h.client.conversations.submitConversation({ transcript: TRANSCRIPT, audio_url: 's3://call-recordings/c.wav', metrics: [textMetric, audioMetric] });
    expect(conversation.status).toBe('COMPLETED');
    await h.sandbox.idle();
    expect(wavesOf(conversation.conversation_id)).toEqual(['text', 'audio']);
  });

  it('delivers nothing for a refused submit', async () => {
    const before = deliveries.length;
    await expect400(h.client.conversations.submitUploadedConversation({ transcript: TRANSCRIPT, audio_url: 'https://' }), 'audio_url');
    await h.sandbox.idle();
    expect(deliveries.length).toBe(before);
  });
});
