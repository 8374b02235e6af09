// A URL for a target to call that nobody answers, chosen so every attempt fails at once: a loopback address
// (no name to look up, where an `.invalid` host costs a DNS query per attempt, seconds on a slow resolver) on
// port 1, which nothing listens on (the connection is refused).
export function unansweredUrl(scheme: 'http' | 'https', path: string): string {
  return `${scheme}://127.0.0.1:1/${path.replace(/^\/+/, '')}`;
}
