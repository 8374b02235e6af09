// @ts-check
// The unchanged-spec shortcut of `npm run generate`: a key over everything a run reads (the spec's folder, the
// generator's own source, the installed versions of its dependencies, the options) is compared with the key the
// last run recorded, and the output files are compared with what that run wrote. When both match, the run is over
// before the loader, the model, TypeScript or any native module is loaded.
// Plain JavaScript with node: built-ins only (checked by tsc through JSDoc), on purpose: the launcher of
// `npm run generate` (src/cli/launch.js) runs it before tsx is loaded, and the CLI runs the same code.
// A URL spec has no shortcut (the server's answer may change); a spec folder too large to hash cheaply neither.
//
// Every file (input or output) is known by the sha256 of its bytes. Reading and hashing every file again is most
// of the check's time, so a record also keeps the file's stat (size, mtime, ctime, inode) once the file is old
// enough for the stat to be trusted: a file whose stat is as recorded has not been written since (any write moves
// its ctime to the current time, which nobody can set back), so its recorded hash stands. A file written within
// SETTLE_MS of being looked at could be written again within the same timestamp tick, unseen by its stat
// (git's "racy clean" entries): such a record keeps no stat, so the file is hashed until a later run can trust it.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LIMITS } from '../load/limits.js';

/**
 * Past these, hashing the inputs is not cheap enough to be worth it: the run simply generates. A file larger than
 * the loader accepts is never read here either (its size is known first), so the loader refuses it as before.
 */
const MAX_FILES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_FILE_BYTES = DEFAULT_LIMITS.maxDocumentBytes;

/**
 * A stat is trusted only for a file last changed at least this long before it was taken: more than the timestamp
 * tick of file systems with sub-second timestamps (the kernel's coarse clock, 1-10 ms) and than the lag of that
 * clock behind Date.now(). File systems with whole-second timestamps get SETTLE_COARSE_MS.
 */
const SETTLE_MS = 100;
const SETTLE_COARSE_MS = 2500;

/** Stamps of another layout are not read (the run generates and writes this one). */
const STAMP_VERSION = 2;

const TOOL_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * @typedef {object} RunInputs
 * @property {string[]} specs Spec folders or files (a file stands for its folder: relative $refs can reach its siblings).
 * @property {string} out
 * @property {Record<string, unknown>} options Every option that changes the output (policy, --json, companions, ...).
 */

/**
 * A file as a run saw it.
 * @typedef {object} FileRecord
 * @property {string} sha256 Of the file's bytes.
 * @property {string} [stat] `size:mtimeNs:ctimeNs:inode`, only when the file was old enough to trust it (see above).
 */

/**
 * The key of a run's inputs, with the record of every input file it read (kept in the stamp so the next run can
 * skip reading the files whose stat is unchanged).
 * @typedef {object} RunKey
 * @property {string} key
 * @property {string} out The output folder, resolved.
 * @property {Record<string, FileRecord>} inputs By absolute path.
 */

/**
 * @typedef {object} Stamp
 * @property {number} version
 * @property {string} key
 * @property {Record<string, FileRecord>} inputs Input files by absolute path.
 * @property {Record<string, FileRecord>} files Output files, relative to the output folder, forward slashes.
 */

/**
 * The default folder for the stamp: node_modules/.cache/<tool> under the working directory (the usual place).
 * @param {string} [cwd]
 * @returns {string}
 */
export function defaultStampDir(cwd = process.cwd()) {
  return join(cwd, 'node_modules', '.cache', 'evalplatform-toolchain');
}

/**
 * @param {string} dir
 * @param {string} out
 * @returns {string}
 */
function stampFile(dir, out) {
  return join(dir, `last-run-${sha256(resolve(out)).slice(0, 16)}.json`);
}

/**
 * The last run's stamp for an output folder, or undefined (none, damaged, or of another layout).
 * @param {string} dir
 * @param {string} out
 * @returns {Stamp | undefined}
 */
export function readStamp(dir, out) {
  try {
    const stamp = /** @type {Stamp} */ (JSON.parse(readFileSync(stampFile(dir, out), 'utf8')));
    const isRecords = (/** @type {unknown} */ value) => typeof value === 'object' && value !== null && !Array.isArray(value);
    if (stamp?.version !== STAMP_VERSION || typeof stamp.key !== 'string' || !isRecords(stamp.inputs) || !isRecords(stamp.files)) return undefined;
    return stamp;
  } catch {
    return undefined;
  }
}

/**
 * The key of a run's inputs, or undefined when they cannot be hashed cheaply (a URL, a huge folder). `known`: the
 * input records of the last run (its stamp's), whose hashes stand for files whose stat is unchanged.
 * @param {RunInputs} inputs
 * @param {Record<string, FileRecord>} [known]
 * @returns {RunKey | undefined}
 */
export function inputsKey(inputs, known = {}) {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ out: resolve(inputs.out), options: inputs.options, node: process.versions.node }));
  /** @type {Record<string, FileRecord>} */
  const records = {};
  const budget = { files: 0, bytes: 0 };
  const walk = (/** @type {string} */ root) => hashTree(hash, root, budget, known, records);
  for (const spec of inputs.specs) {
    if (/^https?:\/\//i.test(spec)) return undefined;
    const path = resolve(spec);
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (info === undefined) return undefined;
    if (!walk(info.isDirectory() ? path : dirname(path))) return undefined;
  }
  // The generator itself: its source and templates, and the installed version of every dependency.
  for (const folder of ['src', 'templates']) if (!walk(join(TOOL_ROOT, folder))) return undefined;
  const require = createRequire(join(TOOL_ROOT, 'package.json'));
  const manifest = /** @type {{ dependencies?: Record<string, string> }} */ (JSON.parse(readFileSync(join(TOOL_ROOT, 'package.json'), 'utf8')));
  const dependencies = manifest.dependencies ?? {};
  for (const name of Object.keys(dependencies).sort()) {
    try {
      hash.update(`${name}@${/** @type {{ version: string }} */ (require(`${name}/package.json`)).version}\n`);
    } catch {
      hash.update(`${name}@?\n`); // a package that does not export its package.json: its range stands in
      hash.update(dependencies[name] ?? '');
    }
  }
  return { key: hash.digest('hex'), out: resolve(inputs.out), inputs: records };
}

/**
 * The records of the generator's own source files (src/, by absolute path; `known` ones stand for files whose stat
 * is unchanged), or undefined past the budget: what a build of the generator depends on (src/cli/compiled-cli.js).
 * @param {Record<string, FileRecord>} [known]
 * @returns {Record<string, FileRecord> | undefined}
 */
export function sourceRecords(known = {}) {
  /** @type {Record<string, FileRecord>} */
  const records = {};
  return hashTree(createHash('sha256'), join(TOOL_ROOT, 'src'), { files: 0, bytes: 0 }, known, records) ? records : undefined;
}

/**
 * Files under `root` (not node_modules, not .git), names, sizes and hashes, in a fixed order. False past the budget.
 * @param {import('node:crypto').Hash} hash
 * @param {string} root
 * @param {{ files: number, bytes: number }} budget
 * @param {Record<string, FileRecord>} known
 * @param {Record<string, FileRecord>} records
 * @returns {boolean}
 */
function hashTree(hash, root, budget, known, records) {
  /** @type {string[]} */
  let entries;
  try {
    entries = readdirSync(root, { recursive: true, encoding: 'utf8' });
  } catch {
    return false;
  }
  const now = Date.now();
  for (const name of entries.sort()) {
    if (name.split(sep).some((part) => part === 'node_modules' || part === '.git')) continue;
    const path = join(root, name);
    const info = lstatSync(path, { throwIfNoEntry: false, bigint: true });
    if (!info?.isFile()) continue;
    budget.files += 1;
    budget.bytes += Number(info.size);
    if (budget.files > MAX_FILES || budget.bytes > MAX_BYTES || info.size > MAX_FILE_BYTES) return false;
    const record = recordOf(path, info, Object.hasOwn(known, path) ? known[path] : undefined, now);
    records[path] = record;
    hash.update(`${path}\u0000${info.size}\u0000${record.sha256}\n`);
  }
  return true;
}

/**
 * The files of the output, by relative path, when the last run had the same key and every file it wrote is still
 * there, byte for byte, with nothing added to the package folders it owns; otherwise undefined. When files had to
 * be hashed (their stat was not trusted yet, or changed without their bytes changing), the stamp is written again
 * with their stat, so the next run need not.
 * @param {string} dir The stamp folder.
 * @param {RunKey} run
 * @param {Stamp | undefined} [stamp] The stamp, when the caller has read it already.
 * @returns {string[] | undefined}
 */
export function upToDate(dir, run, stamp = readStamp(dir, run.out)) {
  if (stamp === undefined || stamp.key !== run.key) return undefined;
  const paths = Object.keys(stamp.files);
  /** @type {Record<string, FileRecord>} */
  const files = {};
  const now = Date.now();
  for (const path of paths) {
    const target = join(run.out, path);
    const info = lstatSync(target, { throwIfNoEntry: false, bigint: true });
    if (!info?.isFile()) return undefined;
    const recorded = stamp.files[path];
    const record = recordOf(target, info, recorded, now);
    if (record.sha256 !== recorded?.sha256) return undefined;
    files[path] = record;
  }
  // A file dropped into a package folder would be removed by a real run: then this is not up to date.
  // (Top-level files such as the kept model are checked above; only package folders are listed.)
  for (const folder of new Set(paths.filter((p) => p.includes('/')).map((p) => p.split('/')[0] ?? ''))) {
    for (const entry of readdirSync(join(run.out, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isDirectory()) continue;
      const path = [folder, ...relativeParts(join(run.out, folder), join(entry.parentPath, entry.name))].join('/');
      if (path.split('/').includes('node_modules')) continue;
      if (!Object.hasOwn(stamp.files, path)) return undefined;
    }
  }
  const fresh = { ...stamp, version: STAMP_VERSION, key: run.key, inputs: run.inputs, files };
  if (JSON.stringify(fresh) !== JSON.stringify(stamp)) writeStamp(dir, run.out, fresh);
  return paths;
}

/**
 * Records what a run wrote under its key (atomically; a stamp that cannot be written only costs speed).
 * @param {string} dir The stamp folder.
 * @param {RunKey} run
 * @param {string[]} paths Every output file the run wrote or found unchanged, relative to the output folder.
 * @returns {void}
 */
export function recordRun(dir, run, paths) {
  /** @type {Record<string, FileRecord>} */
  const files = {};
  const now = Date.now();
  for (const path of [...paths].sort()) {
    const target = join(run.out, path);
    const info = lstatSync(target, { bigint: true });
    files[path] = recordOf(target, info, undefined, now);
  }
  writeStamp(dir, run.out, { version: STAMP_VERSION, key: run.key, inputs: run.inputs, files });
}

/**
 * @param {string} dir
 * @param {string} out
 * @param {Stamp} stamp
 * @returns {void}
 */
function writeStamp(dir, out, stamp) {
  try {
    mkdirSync(dir, { recursive: true });
    const file = stampFile(dir, out);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(stamp));
    renameSync(temp, file);
  } catch {
    // Read-only or full disk: the next run generates in full.
  }
}

/**
 * The record of a file: the known one when its stat matches (the file was not written since), else a fresh hash,
 * with the stat when the file last changed long enough before `now` (the time taken before the stat) to trust it.
 * @param {string} path
 * @param {import('node:fs').BigIntStats} info
 * @param {FileRecord | undefined} known
 * @param {number} now
 * @returns {FileRecord}
 */
function recordOf(path, info, known, now) {
  const stat = `${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`;
  if (known?.stat === stat && typeof known.sha256 === 'string') return known;
  const record = { sha256: sha256(readFileSync(path)) };
  const coarse = info.mtimeNs % 1_000_000_000n === 0n && info.ctimeNs % 1_000_000_000n === 0n;
  const settledBefore = BigInt(now - (coarse ? SETTLE_COARSE_MS : SETTLE_MS)) * 1_000_000n;
  return info.mtimeNs < settledBefore && info.ctimeNs < settledBefore ? { ...record, stat } : record;
}

/**
 * @param {string} root
 * @param {string} path
 * @returns {string[]}
 */
function relativeParts(root, path) {
  return path.slice(root.length + 1).split(sep);
}

/**
 * @param {string | Buffer} data
 * @returns {string}
 */
function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}
