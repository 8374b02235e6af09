// The credential a request carries in one of its route's auth headers (issue 27: specs authenticate with any
// scheme). An API-key header holds the key itself; `Authorization` holds `Bearer <key>`, or `Basic
// base64(<user>:<key>)` (the password is the key; with an empty password, the user name is). The sandbox's
// keys are the same records whatever the scheme, so the development key works as a bearer token and a password.
export function credentialOf(header: string, value: string | null): string | null {
  if (value === null || header.toLowerCase() !== 'authorization') return value;
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  if (bearer) return bearer[1]!.trim();
  const basic = /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(value.trim());
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return decoded;
    const password = decoded.slice(colon + 1);
    return password !== '' ? password : decoded.slice(0, colon);
  }
  return value;
}
