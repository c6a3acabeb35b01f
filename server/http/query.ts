/**
 * Query-string parsing. `+` decodes to a space and `%XX` escapes are decoded, as Go's
 * url.ParseQuery does for 1.x; the first occurrence of a repeated key wins.
 */
export type QueryParams = ReadonlyMap<string, string>;

export function parseQuery(raw: string | undefined): QueryParams {
  const params = new Map<string, string>();
  if (!raw) return params;
  for (const [key, value] of new URLSearchParams(raw)) {
    if (!params.has(key)) params.set(key, value);
  }
  return params;
}
