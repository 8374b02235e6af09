import { cpLength, } from './text.js';

// Formats: checks (a subset of what ajv-formats accepts) and canonical values.

export const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const y = +m[1]!;
  const mo = +m[2]!;
  const d = +m[3]!;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return mo >= 1 && mo <= 12 && d >= 1 && d <= (mo === 2 && leap ? 29 : DAYS[mo]!);
}
export function isTime(s: string, zoneRequired: boolean): boolean {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|z|[+-](\d{2}):(\d{2}))?$/.exec(s);
  if (!m) return false;
  if (zoneRequired && m[4] === undefined) return false;
  if (m[5] !== undefined && (+m[5] > 23 || +m[6]! > 59)) return false;
  return +m[1]! <= 23 && +m[2]! <= 59 && +m[3]! <= 59;
}
export function isDateTime(s: string, zoneRequired: boolean): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](.*)$/.exec(s);
  return m !== null && isDate(m[1]!) && isTime(m[2]!, zoneRequired);
}
export const PCHAR = "(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})";
export const QCHAR = "(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})";
export const REGNAME = "(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*";
export const URI_TAIL = `(?:\\?${QCHAR}*)?(?:#${QCHAR}*)?$`;
export const URI_RE = new RegExp(`^[a-z][a-z0-9+\\-.]*:(?://${REGNAME}(?::\\d*)?(?:/${PCHAR}*)*|${PCHAR}+(?:/${PCHAR}*)*)${URI_TAIL}`, 'i');
export const PCHAR_NO_COLON = "(?:[a-z0-9\\-._~!$&'()*+,;=@]|%[0-9a-f]{2})";
export const RELATIVE_REF_RE = new RegExp(`^(?:/(?:${PCHAR}+(?:/${PCHAR}*)*)?|${PCHAR_NO_COLON}+(?:/${PCHAR}*)*)?${URI_TAIL}`, 'i');
export const EMAIL_RE = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
export const HOSTNAME_RE = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i;
export const IPV4_RE = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
export const UUID_RE = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
export const URL_RE = /^https?:\/\/[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*\.[a-z]{2,}(?::\d{2,5})?(?:\/[^\s]*)?$/i;
export const URI_TEMPLATE_RE =
  /^(?:(?:[^\x00-\x20"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*$/i;
export const DURATION_RE = /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/;

export function isIpv6(s: string): boolean {
  const halves = s.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string): string[] | null => (h === '' ? [] : h.split(':'));
  const a = groups(halves[0]!);
  const b = halves.length === 2 ? groups(halves[1]!) : [];
  if (a === null || b === null) return false;
  const all = [...a, ...b];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false;
  return halves.length === 2 ? all.length <= 7 : all.length === 8;
}

/** Whether `s` passes string format `format`; formats this module does not know pass (validators ignore them too). */
export function stringFormatOk(format: string, s: string): boolean {
  switch (format) {
    case 'date':
      return isDate(s);
    case 'time':
      return isTime(s, true);
    case 'iso-time':
      return isTime(s, false);
    case 'date-time':
      return isDateTime(s, true);
    case 'iso-date-time':
      return isDateTime(s, false);
    case 'duration':
      return DURATION_RE.test(s);
    case 'uri':
    case 'iri':
      return URI_RE.test(s);
    case 'uri-reference':
    case 'iri-reference':
      return URI_RE.test(s) || RELATIVE_REF_RE.test(s);
    case 'uri-template':
      return URI_TEMPLATE_RE.test(s);
    case 'url':
      return URL_RE.test(s);
    case 'email':
    case 'idn-email':
      return EMAIL_RE.test(s);
    case 'hostname':
    case 'idn-hostname':
      return HOSTNAME_RE.test(s);
    case 'ipv4':
      return IPV4_RE.test(s);
    case 'ipv6':
      return isIpv6(s);
    case 'uuid':
      return UUID_RE.test(s);
    case 'json-pointer':
      return /^(?:\/(?:[^~/]|~0|~1)*)*$/.test(s);
    case 'relative-json-pointer':
      return /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/.test(s);
    case 'byte':
      return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s);
    case 'regex':
      if (/[^\\]\\Z/.test(s)) return false;
      try {
        new RegExp(s, 'u');
        return true;
      } catch {
        return false;
      }
    default:
      return true;
  }
}

export function numberFormatOk(format: string, n: number): boolean {
  if (format === 'int32') return Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1;
  if (format === 'int64') return Number.isInteger(n);
  return true;
}

/** Shortest canonical values, for tight maxLength limits. */
export const SHORT_FORMAT_VALUES: Record<string, string> = { byte: '', uri: 'a:b', iri: 'a:b', 'uri-reference': 'a', 'iri-reference': 'a', email: 'a@b.co', 'idn-email': 'a@b.co', hostname: 'a', 'idn-hostname': 'a', url: 'http://a.co', 'uri-template': 'a', ipv6: '::1' };

export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** A canonical valid value of a string format (varied by `variant`), stretched toward `minLen` where the format allows. */
export function formatValue(format: string, variant: number, minLen: number): string | undefined {
  const v = variant;
  const day = pad2((v % 28) + 1);
  const month = pad2((Math.floor(v / 28) % 12) + 1);
  const fill = (base: string, sep: string): string => (cpLength(base) >= minLen ? base : base + sep + 'a'.repeat(Math.max(0, minLen - cpLength(base) - sep.length)));
  switch (format) {
    case 'date-time':
    case 'iso-date-time':
      return `2024-${month}-${day}T00:00:00Z`;
    case 'date':
      return `2024-${month}-${day}`;
    case 'time':
    case 'iso-time':
      return `12:00:${pad2(v % 60)}Z`;
    case 'duration':
      return `P${v + 1}D`;
    case 'email':
    case 'idn-email':
      return `user${v === 0 ? '' : v}${'a'.repeat(Math.max(0, minLen - 16 - (v === 0 ? 0 : String(v).length)))}@example.com`;
    case 'uri':
    case 'iri':
    case 'uri-reference':
    case 'iri-reference':
    case 'url':
      return fill(v === 0 ? 'https://example.com' : `https://example.com/${v}`, v === 0 ? '/' : '');
    case 'uri-template':
      return v === 0 ? 'https://example.com/{id}' : `https://example.com/${v}/{id}`;
    case 'hostname':
    case 'idn-hostname':
      return v === 0 ? 'example.com' : `host${v}.example.com`;
    case 'ipv4':
      return `192.0.2.${(v % 254) + 1}`;
    case 'ipv6':
      return `2001:db8::${(v + 1).toString(16)}`;
    case 'uuid':
      return `00000000-0000-4000-8000-${(v + 1).toString(16).padStart(12, '0')}`;
    case 'json-pointer':
      return v === 0 ? '/a' : `/a/${v}`;
    case 'relative-json-pointer':
      return String(v);
    case 'regex':
      return v === 0 ? '^[a-z]+$' : `^[a-z]{${v}}$`;
    case 'byte':
      return btoa(v === 0 ? 'string' : `string${v}`);
    default:
      return undefined;
  }
}
