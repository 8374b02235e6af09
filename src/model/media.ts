// Media-type helpers shared by the model builder and the emitters: one definition of "a JSON media type".
import type { MediaContent } from './ir.js';

/** application/json and any structured-syntax +json type (application/problem+json), with or without parameters. */
export function isJsonMedia(mediaType: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json(?:\s*;|$)/i.test(mediaType);
}

/** The media an emitter uses for a body: JSON first, then the first declared media type. */
export function preferredMedia(content: MediaContent[]): MediaContent | undefined {
  return content.find((c) => isJsonMedia(c.mediaType)) ?? content[0];
}
