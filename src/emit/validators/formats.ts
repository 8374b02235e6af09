// Format checkers, emitted as source only when `assertFormats` is on and the schema uses the format.
// Trusted code written here; regex literals are fine because no schema text is involved.

interface FormatDef {
  fn: string;
  deps: string[];
  src: string;
}

const DATE = `function $fmtDate(s) {
  const m = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(s);
  if (!m) return false;
  const y = +m[1], mo = +m[2], d = +m[3];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  return d <= days;
}`;

// RFC 3339 full-time; a leap second (:60) is only valid when it falls on 23:59 UTC.
const TIME = `function $fmtTime(s) {
  const m = /^(\\d{2}):(\\d{2}):(\\d{2})(?:\\.\\d+)?(?:([Zz])|([+-])(\\d{2}):(\\d{2}))$/.exec(s);
  if (!m) return false;
  const h = +m[1], mi = +m[2], sec = +m[3];
  if (h > 23 || mi > 59 || sec > 60) return false;
  let oh = 0, om = 0;
  if (!m[4]) {
    oh = +m[6];
    om = +m[7];
    if (oh > 23 || om > 59) return false;
    if (m[5] === "-") { oh = -oh; om = -om; }
  }
  if (sec === 60) {
    let utc = (h * 60 + mi - (oh * 60 + om)) % 1440;
    if (utc < 0) utc += 1440;
    return utc === 23 * 60 + 59;
  }
  return true;
}`;

const DATE_TIME = `function $fmtDateTime(s) {
  const i = s.search(/[Tt]/);
  return i === 10 && $fmtDate(s.slice(0, 10)) && $fmtTime(s.slice(11));
}`;

const HOSTNAME = `function $fmtHostname(s) {
  if (s.length === 0 || s.length > 253) return false;
  for (const l of s.split(".")) {
    if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l)) return false;
    // "--" in positions 3-4 is reserved for IDNA labels ("xn--").
    if (l.slice(2, 4) === "--" && l.slice(0, 2).toLowerCase() !== "xn") return false;
  }
  return true;
}`;

const IPV4 = `function $fmtIpv4(s) {
  return /^(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$/.test(s);
}`;

// Hand-parsed: at most one '::', up to 8 groups of 1-4 hex digits, an optional trailing dotted IPv4 worth two groups.
const IPV6 = `function $fmtIpv6(s) {
  if (!/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  const dbl = s.indexOf("::");
  if (dbl !== s.lastIndexOf("::")) return false;
  const parts = (str) => (str === "" ? [] : str.split(":"));
  const head = dbl < 0 ? parts(s) : parts(s.slice(0, dbl));
  const tail = dbl < 0 ? [] : parts(s.slice(dbl + 2));
  const groups = head.concat(tail);
  let count = groups.length;
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    if (i === groups.length - 1 && g.includes(".")) {
      if (!$fmtIpv4(g)) return false;
      count++;
    } else if (!/^[0-9A-Fa-f]{1,4}$/.test(g)) return false;
  }
  return dbl < 0 ? count === 8 : count <= 7;
}`;

const EMAIL = `function $fmtEmail(s) {
  const at = s.lastIndexOf("@");
  if (at <= 0 || at === s.length - 1) return false;
  const local = s.slice(0, at), domain = s.slice(at + 1);
  const dotAtom = /^[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+)*$/;
  const quoted = /^"(?:[^"\\\\\\r\\n]|\\\\.)*"$/;
  if (!dotAtom.test(local) && !quoted.test(local)) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const ip = domain.slice(1, -1);
    return ip.startsWith("IPv6:") ? $fmtIpv6(ip.slice(5)) : $fmtIpv4(ip);
  }
  return $fmtHostname(domain);
}`;

// RFC 3986 reference split into scheme, authority, path, query and fragment; brackets only around an IP literal.
const URI_REF = `function $uriParts(s, needScheme) {
  if (!/^(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@/?#\\[\\]]|%[0-9A-Fa-f]{2})*$/.test(s)) return false;
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\\/\\/([^/?#]*))?([^?#]*)(?:\\?([^#]*))?(?:#(.*))?$/.exec(s);
  if (!m || (needScheme && m[1] === undefined)) return false;
  if (/[[\\]]/.test(m[3]) || /[[\\]]/.test(m[4] || "") || /[[\\]#]/.test(m[5] || "")) return false;
  if (m[2] !== undefined) {
    const at = m[2].lastIndexOf("@");
    if (at >= 0 && /[@[\\]]/.test(m[2].slice(0, at))) return false;
    const hp = m[2].slice(at + 1);
    let port = "";
    if (hp.startsWith("[")) {
      const close = hp.indexOf("]");
      if (close < 0) return false;
      const lit = hp.slice(1, close);
      if (!/^v[0-9A-Fa-f]+\\..+$/.test(lit) && !$fmtIpv6(lit)) return false;
      const after = hp.slice(close + 1);
      if (after !== "" && !after.startsWith(":")) return false;
      port = after.slice(1);
    } else {
      const colon = hp.indexOf(":");
      if (/[[\\]]/.test(hp)) return false;
      if (colon >= 0) port = hp.slice(colon + 1);
    }
    if (!/^[0-9]*$/.test(port)) return false;
  } else if (m[1] === undefined && m[3].split("/")[0].includes(":")) return false;
  return true;
}
function $fmtUriReference(s) {
  return $uriParts(s, false);
}`;

const URI = `function $fmtUri(s) {
  return $uriParts(s, true);
}`;

const UUID = `function $fmtUuid(s) {
  return /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/.test(s);
}`;

const DURATION = `function $fmtDuration(s) {
  // Units are contiguous: Y[M[D]] | M[D] | D, and H[M[S]] | M[S] | S after T; or weeks alone.
  return /^P(?:\\d+W|(?:\\d+Y(?:\\d+M(?:\\d+D)?)?|\\d+M(?:\\d+D)?|\\d+D)(?:T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S))?|T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S))$/.test(s);
}`;

const REGEX = `function $fmtRegex(s) {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
}`;

const JSON_POINTER = `function $fmtJsonPointer(s) {
  return /^(?:\\/(?:[^~/]|~[01])*)*$/.test(s);
}`;

const FORMATS: Record<string, FormatDef> = {
  date: { fn: '$fmtDate', deps: [], src: DATE },
  time: { fn: '$fmtTime', deps: [], src: TIME },
  'date-time': { fn: '$fmtDateTime', deps: ['date', 'time'], src: DATE_TIME },
  hostname: { fn: '$fmtHostname', deps: [], src: HOSTNAME },
  ipv4: { fn: '$fmtIpv4', deps: [], src: IPV4 },
  ipv6: { fn: '$fmtIpv6', deps: ['ipv4'], src: IPV6 },
  email: { fn: '$fmtEmail', deps: ['ipv4', 'ipv6', 'hostname'], src: EMAIL },
  'uri-reference': { fn: '$fmtUriReference', deps: ['ipv6'], src: URI_REF },
  uri: { fn: '$fmtUri', deps: ['uri-reference'], src: URI },
  uuid: { fn: '$fmtUuid', deps: [], src: UUID },
  duration: { fn: '$fmtDuration', deps: [], src: DURATION },
  regex: { fn: '$fmtRegex', deps: [], src: REGEX },
  'json-pointer': { fn: '$fmtJsonPointer', deps: [], src: JSON_POINTER },
};

const ORDER = Object.keys(FORMATS);

/** Name of the checker function for a known format, or undefined for formats we do not assert. */
export function formatFunction(format: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(FORMATS, format) ? FORMATS[format]!.fn : undefined;
}

/** Source of the checkers for the used formats (and their dependencies), in a fixed order. */
export function formatSource(used: ReadonlySet<string>): string {
  const all = new Set<string>();
  const add = (f: string): void => {
    if (all.has(f)) return;
    all.add(f);
    FORMATS[f]!.deps.forEach(add);
  };
  used.forEach(add);
  return ORDER.filter((f) => all.has(f)).map((f) => FORMATS[f]!.src).join('\n\n');
}
