// JSON pointer segments (RFC 6901: `~` -> `~0`, `/` -> `~1`).

export function segment(text: string): string {
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function join(pointer: string, ...parts: string[]): string {
  return [pointer, ...parts.map(segment)].join('/');
}
