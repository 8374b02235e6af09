// The one comment escaper: spec text (descriptions, summaries) becomes JSDoc only through here.

/** Escape text for use inside a block comment: it can never close the comment or smuggle in a line that runs. */
export function commentText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029\u0085]/g, '\n')
    .replace(/\*\//g, '*\\/')
    .replace(/\/\*/g, '/\\*')
    // As in string literals (`<` escaped): a comment never holds `</script>`, should the code be inlined in HTML.
    .replace(/<\//g, '<\\/')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A JSDoc block (with trailing newline) for the given lines and tags, or '' when there is nothing to say. */
export function jsDoc(description: string | undefined, tags: string[] = []): string {
  const lines: string[] = [];
  if (description && description.trim() !== '') lines.push(...commentText(description.trim()).split('\n'));
  for (const tag of tags) lines.push(commentText(tag));
  if (lines.length === 0) return '';
  if (lines.length === 1) return `/** ${lines[0]} */\n`;
  return `/**\n${lines.map((l) => (l === '' ? ' *' : ` * ${l}`)).join('\n')}\n */\n`;
}
