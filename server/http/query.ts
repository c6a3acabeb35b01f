/**
 * Query-string parsing. `+` decodes to a space and `%XX` escapes are decoded, as Go's
 * url.ParseQuery does for 1.x; the first occurrence of a repeated key wins.
 *
 * Split by hand, with decodeURIComponent only on parts that hold an escape: the same pairs as
 * URLSearchParams (query.test.ts checks), at a fraction of its cost on the long `q` of every
 * /query. Text decodeURIComponent refuses (a malformed escape, invalid UTF-8) goes through
 * URLSearchParams, which keeps such bytes as 1.x-compatible replacement text.
 */
export type QueryParams = ReadonlyMap<string, string>;

export function parseQuery(raw: string | undefined): QueryParams {
  const params = new Map<string, string>();
  if (!raw) return params;
  try {
    splitPairs(raw, params);
  } catch {
    params.clear();
    for (const [key, value] of new URLSearchParams(raw)) {
      if (!params.has(key)) params.set(key, value);
    }
  }
  return params;
}

function splitPairs(raw: string, params: Map<string, string>): void {
  // URLSearchParams drops one leading `?` (a request for `/query??a=1`).
  for (let start = raw.startsWith('?') ? 1 : 0; start <= raw.length; ) {
    let end = raw.indexOf('&', start);
    if (end < 0) end = raw.length;
    if (end > start) {
      const eq = raw.indexOf('=', start);
      const hasValue = eq >= 0 && eq < end;
      const key = decode(raw.slice(start, hasValue ? eq : end));
      if (!params.has(key)) params.set(key, hasValue ? decode(raw.slice(eq + 1, end)) : '');
    }
    start = end + 1;
  }
}

/** Throws URIError on text URLSearchParams would decode differently (see the file comment). */
function decode(part: string): string {
  if (part.indexOf('%') < 0 && part.indexOf('+') < 0) return part;
  return decodeURIComponent(part.replace(/\+/g, ' '));
}
