// Request size limits shared by the readers.

/** The largest body accepted: base64 audio of 200 MB is about 267 MB of text. */
export const MAX_BODY_BYTES = 280 * 1024 * 1024;
