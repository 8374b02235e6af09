// Format checkers of a generated validator module, emitted only when `assertFormats` is on and the schema uses
// the format (formats.ts maps format names to these functions). A real module with the rules of helpers.ts:
// type-checked and unit-tested here, copied into the generated module as JavaScript (types stripped).

/** RFC 3339 full-date, with the days of each month (leap years included). */
export function $fmtDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const y = +m[1]!,
    mo = +m[2]!,
    d = +m[3]!;
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  return d <= days;
}

/** RFC 3339 full-time; a leap second (:60) is only valid when it falls on 23:59 UTC. */
export function $fmtTime(s: string): boolean {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/.exec(s);
  if (!m) return false;
  const h = +m[1]!,
    mi = +m[2]!,
    sec = +m[3]!;
  if (h > 23 || mi > 59 || sec > 60) return false;
  let oh = 0,
    om = 0;
  if (!m[4]) {
    oh = +m[6]!;
    om = +m[7]!;
    if (oh > 23 || om > 59) return false;
    if (m[5] === '-') {
      oh = -oh;
      om = -om;
    }
  }
  if (sec === 60) {
    let utc = (h * 60 + mi - (oh * 60 + om)) % 1440;
    if (utc < 0) utc += 1440;
    return utc === 23 * 60 + 59;
  }
  return true;
}

export function $fmtDateTime(s: string): boolean {
  const i = s.search(/[Tt]/);
  return i === 10 && $fmtDate(s.slice(0, 10)) && $fmtTime(s.slice(11));
}

export function $fmtHostname(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  for (const l of s.split('.')) {
    if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l)) return false;
    // "--" in positions 3-4 is reserved for IDNA labels ("xn--").
    if (l.slice(2, 4) === '--' && l.slice(0, 2).toLowerCase() !== 'xn') return false;
  }
  return true;
}

export function $fmtIpv4(s: string): boolean {
  return /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(s);
}

/** Hand-parsed: at most one '::', up to 8 groups of 1-4 hex digits, an optional trailing dotted IPv4 worth two groups. */
export function $fmtIpv6(s: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  const dbl = s.indexOf('::');
  if (dbl !== s.lastIndexOf('::')) return false;
  const parts = (str: string): string[] => (str === '' ? [] : str.split(':'));
  const head = dbl < 0 ? parts(s) : parts(s.slice(0, dbl));
  const tail = dbl < 0 ? [] : parts(s.slice(dbl + 2));
  const groups = head.concat(tail);
  let count = groups.length;
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!;
    if (i === groups.length - 1 && g.includes('.')) {
      if (!$fmtIpv4(g)) return false;
      count++;
    } else if (!/^[0-9A-Fa-f]{1,4}$/.test(g)) return false;
  }
  return dbl < 0 ? count === 8 : count <= 7;
}

export function $fmtEmail(s: string): boolean {
  const at = s.lastIndexOf('@');
  if (at <= 0 || at === s.length - 1) return false;
  const local = s.slice(0, at),
    domain = s.slice(at + 1);
  const dotAtom = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
  const quoted = /^"(?:[^"\\\r\n]|\\.)*"$/;
  if (!dotAtom.test(local) && !quoted.test(local)) return false;
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const ip = domain.slice(1, -1);
    return ip.startsWith('IPv6:') ? $fmtIpv6(ip.slice(5)) : $fmtIpv4(ip);
  }
  return $fmtHostname(domain);
}

/** RFC 3986 reference split into scheme, authority, path, query and fragment; brackets only around an IP literal. */
export function $uriParts(s: string, needScheme: boolean): boolean {
  if (!/^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#\[\]]|%[0-9A-Fa-f]{2})*$/.test(s)) return false;
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(s);
  if (!m || (needScheme && m[1] === undefined)) return false;
  if (/[[\]]/.test(m[3]!) || /[[\]]/.test(m[4] || '') || /[[\]#]/.test(m[5] || '')) return false;
  if (m[2] !== undefined) {
    const at = m[2].lastIndexOf('@');
    if (at >= 0 && /[@[\]]/.test(m[2].slice(0, at))) return false;
    const hp = m[2].slice(at + 1);
    let port = '';
    if (hp.startsWith('[')) {
      const close = hp.indexOf(']');
      if (close < 0) return false;
      const lit = hp.slice(1, close);
      if (!/^v[0-9A-Fa-f]+\..+$/.test(lit) && !$fmtIpv6(lit)) return false;
      const after = hp.slice(close + 1);
      if (after !== '' && !after.startsWith(':')) return false;
      port = after.slice(1);
    } else {
      const colon = hp.indexOf(':');
      if (/[[\]]/.test(hp)) return false;
      if (colon >= 0) port = hp.slice(colon + 1);
    }
    if (!/^[0-9]*$/.test(port)) return false;
  } else if (m[1] === undefined && m[3]!.split('/')[0]!.includes(':')) return false;
  return true;
}

export function $fmtUriReference(s: string): boolean {
  return $uriParts(s, false);
}

export function $fmtUri(s: string): boolean {
  return $uriParts(s, true);
}

export function $fmtUuid(s: string): boolean {
  return /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/.test(s);
}

/** ISO 8601 duration. Units are contiguous: Y[M[D]] | M[D] | D, and H[M[S]] | M[S] | S after T; or weeks alone. */
export function $fmtDuration(s: string): boolean {
  return /^P(?:\d+W|(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))$/.test(
    s,
  );
}

export function $fmtRegex(s: string): boolean {
  try {
    new RegExp(s, 'u');
    return true;
  } catch {
    return false;
  }
}

export function $fmtJsonPointer(s: string): boolean {
  return /^(?:\/(?:[^~/]|~[01])*)*$/.test(s);
}
