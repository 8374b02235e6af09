// Turn a document with relative $refs into a self-contained one. Referenced items are hoisted into the
// document's own `components` under their own names (a whole-file ref is named after the file), so the
// bundled document reads like one written by hand and every served document stands alone.
// Refs may only reach files inside the source's boundary (the spec folder or the catalog's origin).
import { realpathSync } from 'node:fs';
import { basename, dirname, extname, resolve as resolvePath, sep } from 'node:path';
import { SpecError, pointerKeys, pointerOf } from './errors.js';
import { FetchError } from './fetch-text.js';
import { parseSpecText } from './parse.js';
import type { LoadLimits } from './limits.js';
import type { Source } from './sources.js';

type Json = unknown;
type JsonObject = Record<string, Json>;

const SECTIONS = new Set(['schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks', 'pathItems']);

/** A place in one of the files: its file, its keys from that file's root, and the value there. */
interface Place {
  uri: string;
  keys: string[];
  value: Json;
}

const MAX_REF_HOPS = 64;

const isRefNode = (node: Json): node is { $ref: string } => node !== null && typeof node === 'object' && !Array.isArray(node) && typeof (node as JsonObject).$ref === 'string';

/** A JSON pointer fragment (`#/a~1b/c`) of keys. */
const pointerOfKeys = (keys: readonly string[]): string => (keys.length === 0 ? '#' : `#/${keys.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`);

/** Component names may only hold `[a-zA-Z0-9._-]` (OpenAPI); any other character of a hoisted name becomes `_`. */
const componentName = (wanted: string): string => wanted.replace(/[^a-zA-Z0-9._-]/g, '_') || 'ref';

interface External {
  uri: string;
  value: Json;
}

/**
 * `shared`: referenced files already read and parsed for another document of the same load (by URI), so a file
 * every document refers to (`_shared.yaml`) is read and parsed once. Its values are never changed (what is hoisted is
 * a copy), so sharing them is safe; the documents being bundled themselves are never put there.
 */
export async function bundleDocument(spec: string, uri: string, root: Json, source: Source, limits: LoadLimits, shared: Map<string, Json> = new Map()): Promise<JsonObject> {
  if (root === null || typeof root !== 'object' || Array.isArray(root)) throw new SpecError(spec, '#', 'a document must be a JSON/YAML object');
  const doc = root as JsonObject;
  const files = new Map<string, External>([[uri, { uri, value: doc }]]);
  const hoisted = new Map<string, string>(); // `${fileUri}#${fragment}` -> local ref
  const inlining = new Set<string>(); // refs being inlined right now (path items): seeing one again is a cycle
  const realPaths = new Map<string, string>(); // real paths already looked up (a file is referred to many times)

  const loadFile = async (fileUri: string, from: string): Promise<External> => {
    const known = files.get(fileUri);
    if (known) return known;
    if (files.size >= limits.maxFiles) throw new SpecError(spec, from, `more than ${limits.maxFiles} files are referenced`);
    if (shared.has(fileUri)) {
      const file = { uri: fileUri, value: shared.get(fileUri) };
      files.set(fileUri, file);
      return file;
    }
    let text: string;
    try {
      text = await source.read(fileUri);
    } catch (error) {
      // A referenced file that cannot be fetched or read: name the place that refers to it.
      if (error instanceof SpecError) throw new SpecError(spec, from, `$ref to ${displayName(fileUri)}: ${error.reason}`);
      if (error instanceof FetchError) throw new SpecError(spec, from, error.message);
      throw error;
    }
    const parsed = parseSpecText(`${spec} (${displayName(fileUri)})`, text, limits);
    const file = { uri: fileUri, value: parsed.value };
    files.set(fileUri, file);
    shared.set(fileUri, parsed.value);
    return file;
  };

  const components = (): JsonObject => {
    if (doc.components === undefined) doc.components = {};
    return doc.components as JsonObject;
  };

  const localName = (section: string, wanted: string, key: string): string => {
    const bucket = (components()[section] ??= {}) as JsonObject;
    let name = componentName(wanted);
    for (let n = 2; Object.prototype.hasOwnProperty.call(bucket, name) && hoisted.get(key) !== `#/components/${section}/${name}`; n++) name = `${componentName(wanted)}${n}`;
    return name;
  };

  const fileValue = async (fileUri: string, from: string): Promise<Json> => (fileUri === uri ? doc : (await loadFile(fileUri, from)).value);

  // Walk `keys` in a file; a step the node lacks, where the node is a `$ref`, continues at the ref's target (in
  // whichever file it names, relative to the file holding it), as JSON Reference resolvers do.
  const locate = async (fileUri: string, keys: readonly string[], from: string, hops: number): Promise<Place> => {
    let at: Place = { uri: fileUri, keys: [], value: await fileValue(fileUri, from) };
    for (const key of keys) {
      for (let node = at.value; isRefNode(node) && !Object.prototype.hasOwnProperty.call(node, key); node = at.value) {
        if (++hops > MAX_REF_HOPS) throw new SpecError(spec, from, `a chain of more than ${MAX_REF_HOPS} $refs (a cycle?)`);
        at = await follow(node.$ref, at.uri, from, hops);
      }
      const node = at.value;
      const has = Array.isArray(node) ? /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < node.length : node !== null && typeof node === 'object' && Object.prototype.hasOwnProperty.call(node, key);
      if (!has) throw new Error('missing');
      at = { uri: at.uri, keys: [...at.keys, key], value: (node as JsonObject)[key] };
    }
    return at;
  };

  const follow = async (ref: string, fileUri: string, from: string, hops: number): Promise<Place> => {
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    const target = filePart === '' ? fileUri : resolveWithin(spec, filePart, fileUri, source.boundary, from, realPaths);
    return locate(target, pointerKeys(`#${hash === -1 ? '' : ref.slice(hash + 1)}`), from, hops);
  };

  // Rewrite every $ref in `node` (which lives in file `fileUri` at `path` of the bundled document).
  const visit = async (node: Json, fileUri: string, path: (string | number)[]): Promise<Json> => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) node[i] = await visit(node[i], fileUri, [...path, i]);
      return node;
    }
    const obj = node as JsonObject;
    if (typeof obj.$ref === 'string') {
      const rewritten = await rewriteRef(obj.$ref, fileUri, path);
      if (rewritten.inline !== undefined) return rewritten.inline;
      obj.$ref = rewritten.ref;
    }
    for (const key of Object.keys(obj)) {
      if (key === '$ref') continue;
      // Examples and extension values are data, not schema: never chase refs inside them.
      if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const' || key === 'default' || key.startsWith('x-')) continue;
      obj[key] = await visit(obj[key], fileUri, [...path, key]);
    }
    return obj;
  };

  const rewriteRef = async (ref: string, fileUri: string, path: (string | number)[]): Promise<{ ref?: string; inline?: Json }> => {
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? '' : ref.slice(hash + 1);
    if (filePart === '' && fileUri === uri) return { ref }; // a local ref of the root document
    const target = filePart === '' ? fileUri : resolveWithin(spec, filePart, fileUri, source.boundary, pointerOf(path), realPaths);
    // Where the ref really leads: a step through another ref (of this file or of another one) continues at that
    // ref's target, so the place found is named by its own file and pointer (two refs reaching it share it).
    let place: Place;
    try {
      place = await locate(target, pointerKeys(`#${fragment}`), pointerOf(path), 0);
    } catch (error) {
      if (error instanceof SpecError) throw error;
      throw new SpecError(spec, pointerOf(path), `$ref ${JSON.stringify(ref)} points at nothing`);
    }
    const keys = place.keys;
    const fragmentOf = pointerOfKeys(keys);
    const key = `${place.uri}${fragmentOf}`;
    const done = hoisted.get(key);
    if (done) return { ref: done };
    if (place.uri === uri && sectionFor(path) !== undefined) return { ref: fragmentOf }; // a place of the root document
    const value = place.value;
    const file = { uri: place.uri };
    let section: string | undefined;
    let name: string;
    if (keys.length === 3 && keys[0] === 'components' && SECTIONS.has(keys[1]!)) {
      section = keys[1]!;
      name = keys[2]!;
    } else {
      section = sectionFor(path);
      name = keys.length > 0 ? keys[keys.length - 1]! : basename(file.uri, extname(file.uri));
    }
    if (section === undefined) {
      // Path items (3.0 has no components for them) are inlined; a path item that leads back to itself never ends.
      if (inlining.has(key)) throw new SpecError(spec, pointerOf(path), `$ref ${JSON.stringify(ref)} is a cycle: the path item refers back to itself`);
      inlining.add(key);
      const copy = structuredClone(value);
      const inline = await visit(copy, file.uri, path);
      inlining.delete(key);
      return { inline };
    }
    const localRef = `#/components/${section}/${localName(section, name, key)}`;
    hoisted.set(key, localRef);
    const bucket = components()[section] as JsonObject;
    const localKey = pointerKeys(localRef).at(-1)!;
    bucket[localKey] = {}; // reserve before recursing, so cycles resolve to this name
    const copy = structuredClone(value);
    bucket[localKey] = await visit(copy, file.uri, ['components', section, localKey]);
    return { ref: localRef };
  };

  await visit(doc, uri, []);
  return doc;
}

/** Which components section a whole-file ref belongs in, from where it is used. */
function sectionFor(path: (string | number)[]): string | undefined {
  const parent = path[path.length - 2];
  const last = path[path.length - 1];
  if (path.length === 2 && path[0] === 'paths') return undefined;
  if (path.length === 3 && path[0] === 'components' && typeof path[1] === 'string' && SECTIONS.has(path[1])) return path[1];
  if (parent === 'parameters') return 'parameters';
  if (parent === 'responses') return 'responses';
  if (last === 'requestBody') return 'requestBodies';
  if (parent === 'headers') return 'headers';
  if (parent === 'examples') return 'examples';
  if (parent === 'callbacks') return 'callbacks';
  if (parent === 'links') return 'links';
  return 'schemas';
}

function displayName(uri: string): string {
  return /^https?:/i.test(uri) ? uri : basename(uri);
}

/** Resolve a relative ref against the referring file and refuse anything outside the boundary. */
function resolveWithin(spec: string, ref: string, fromUri: string, boundary: string, pointer: string, realPaths: Map<string, string>): string {
  if (/^https?:\/\//i.test(boundary)) {
    let url: URL;
    try {
      url = new URL(ref, fromUri);
    } catch {
      throw new SpecError(spec, pointer, `$ref ${JSON.stringify(ref)} is not a valid reference`);
    }
    if (!url.href.startsWith(boundary)) throw new SpecError(spec, pointer, `refusing $ref ${JSON.stringify(ref)}: it leaves the catalog (${boundary})`);
    url.hash = '';
    return url.href;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) throw new SpecError(spec, pointer, `refusing $ref ${JSON.stringify(ref)}: only relative file references are allowed`);
  let decoded: string;
  try {
    decoded = decodeURIComponent(ref);
  } catch {
    throw new SpecError(spec, pointer, `$ref ${JSON.stringify(ref)} is not a valid reference`);
  }
  if (decoded.includes('\0')) throw new SpecError(spec, pointer, `refusing $ref ${JSON.stringify(ref)}: it holds a NUL byte`);
  const target = resolvePath(dirname(fromUri), decoded);
  const leaves = (path: string, root: string): boolean => !(path + sep).startsWith(root.endsWith(sep) ? root : root + sep);
  if (leaves(target, boundary)) throw new SpecError(spec, pointer, `refusing $ref ${JSON.stringify(ref)}: it leaves the spec folder ${boundary}`);
  // And physically: a symlink inside the folder must not lead out of it.
  const realpath = (path: string): string => {
    let real = realPaths.get(path);
    if (real === undefined) realPaths.set(path, (real = realpathSync(path)));
    return real;
  };
  let real: string;
  try {
    real = realpath(target);
  } catch {
    throw new SpecError(spec, pointer, `$ref ${JSON.stringify(ref)}: no such file ${target}`);
  }
  if (leaves(real, realpath(boundary))) throw new SpecError(spec, pointer, `refusing $ref ${JSON.stringify(ref)}: it resolves (through a symlink) to ${real}, outside the spec folder ${boundary}`);
  return target;
}
