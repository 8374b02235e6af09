// An outbound answer's body read up to a byte limit (a chat agent's reply, a judge endpoint's): the sandbox calls
// only URLs its caller configured, and reads no more of their answers than its limits allow.

/** The body as UTF-8 text, or null when it is larger than `maxBytes` (the rest is not read). */
export async function readBounded(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string | null> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
