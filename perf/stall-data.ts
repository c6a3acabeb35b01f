/**
 * The large-group dataset of the stall benchmarks (aggregate-stall.ts, subquery-bench.ts):
 * measurement `m`, tag `s` (one value per series), float `v` with repeated values, integer `n`,
 * one point per second per series from BASE_S. Written through /write, so the same function
 * loads InfluxDB 1.6.7 and Strata.
 */
export const BASE_S = 1_700_000_000;

export async function loadStallData(url: string, db: string, series: number, per: number): Promise<void> {
  await fetch(`${url}/query?q=${encodeURIComponent(`CREATE DATABASE ${db}`)}`, { method: 'POST' });
  for (let start = 0; start < per; start += 500) {
    const lines: string[] = [];
    for (let s = 0; s < series; s++) {
      for (let i = start; i < Math.min(per, start + 500); i++) lines.push(`m,s=${s} v=${((i * 7919 + s * 104729) % 1000003) / 7},n=${i}i ${BASE_S + i}`);
    }
    const res = await fetch(`${url}/write?db=${db}&precision=s`, { method: 'POST', body: lines.join('\n') });
    if (res.status !== 204) throw new Error(`write ${res.status}: ${await res.text()}`);
  }
}
