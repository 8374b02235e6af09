// Format checkers, emitted only when `assertFormats` is on and the schema uses the format: the functions of
// runtime/format-checks.ts (a real typed module), copied as JavaScript with the checkers they call.
import { HelperLibrary } from './runtime/library.js';

/** The formats validators assert, and the checker of each. */
const FORMATS: Readonly<Record<string, string>> = {
  date: '$fmtDate',
  time: '$fmtTime',
  'date-time': '$fmtDateTime',
  hostname: '$fmtHostname',
  ipv4: '$fmtIpv4',
  ipv6: '$fmtIpv6',
  email: '$fmtEmail',
  'uri-reference': '$fmtUriReference',
  uri: '$fmtUri',
  uuid: '$fmtUuid',
  duration: '$fmtDuration',
  regex: '$fmtRegex',
  'json-pointer': '$fmtJsonPointer',
};

let library: HelperLibrary | undefined;

function checkers(): HelperLibrary {
  library ??= HelperLibrary.read(new URL('./runtime/format-checks.ts', import.meta.url));
  return library;
}

/** Name of the checker function for a known format, or undefined for formats we do not assert. */
export function formatFunction(format: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(FORMATS, format) ? FORMATS[format] : undefined;
}

/** Source of the checkers for the used formats (and the checkers they call), in a fixed order. */
export function formatSource(used: ReadonlySet<string>): string {
  return used.size === 0 ? '' : checkers().source([...used].map((f) => FORMATS[f]!));
}
