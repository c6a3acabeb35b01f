/**
 * The `chunk_size` query parameter as 1.x reads it: a base-10 int64 above 0, anything else (a
 * negative or zero size, a fraction, text) the default of 10,000 rows. A size below 1 must never
 * reach the chunk writers: they would never finish a series.
 */
export const DEFAULT_CHUNK_SIZE = 10_000;

export function parseChunkSize(text: string | null | undefined): number {
  if (text === null || text === undefined || !/^\+?\d{1,19}$/.test(text)) return DEFAULT_CHUNK_SIZE;
  const n = Number(text);
  return n >= 1 ? Math.min(n, Number.MAX_SAFE_INTEGER) : DEFAULT_CHUNK_SIZE;
}
