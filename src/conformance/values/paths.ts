// Readable paths of values (`conditions[0].metric_id`), as checks and reports name a property.
import type { Seg } from './types.js';

/** `['conditions', 0, 'metric_id']` -> `conditions[0].metric_id`; keys that are not identifiers are quoted: `["a b"]`. */
export function readablePath(segments: readonly Seg[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}
