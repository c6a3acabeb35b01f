/**
 * Whether a request's Accept-Encoding lets the answer be gzip-compressed (RFC 9110 12.5.3).
 *
 * 1.x compresses whenever the header merely contains `gzip` (`strings.Contains`), so it also
 * compresses for `gzip;q=0` (an explicit refusal) and never for `*` or `GZIP` (perf/QUERY.md,
 * session g20, has the probe). Here a listed `gzip` or `x-gzip` with a non-zero q-value, in any
 * case, says yes; `*` does not (as in 1.x: no client that asks for gzip sends only `*`, and a
 * client that sends `*` may not expect a compressed body). The clients that matter send exactly
 * `gzip` (Go's transport: influx CLI, Grafana, Telegraf) or `gzip, deflate` (python requests,
 * Node's fetch): those two are answered without parsing.
 */

export function acceptsGzip(header: string): boolean {
  if (header === '') return false;
  if (header === 'gzip' || header === 'gzip, deflate') return true;
  for (const item of header.split(',')) {
    const [coding = '', ...params] = item.split(';');
    const name = coding.trim().toLowerCase();
    if (name !== 'gzip' && name !== 'x-gzip') continue;
    return qualityOf(params) > 0;
  }
  return false;
}

/** The q parameter of one Accept-Encoding item (1 when absent, 0 when unreadable). */
function qualityOf(params: readonly string[]): number {
  for (const p of params) {
    const [key = '', value = ''] = p.split('=');
    if (key.trim().toLowerCase() !== 'q') continue;
    const q = Number(value.trim());
    return Number.isFinite(q) ? q : 0;
  }
  return 1;
}
