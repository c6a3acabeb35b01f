/**
 * 1.x chunked layout (clients.md item 13): one JSON document per line; each series is its own
 * chunk, split every `chunkSize` rows; `partial: true` on the series and on the result while
 * a series continues, only on the result when another series of the statement follows, and
 * nowhere on a statement's last line.
 */
import type { StatementResult } from '../../ql/index.js';
import type { ChunkStyle } from './chunk-style.js';
import { chunkToJson, type JsonOptions } from './json.js';

export function chunkLines(results: readonly StatementResult[], chunkSize: number, opts: JsonOptions, style: ChunkStyle = 'rows'): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const series = r.series ?? [];
    if (series.length === 0 || style === 'whole') {
      lines.push(chunkToJson(r, opts));
      continue;
    }
    if (style === 'series') {
      for (const s of series) lines.push(chunkToJson({ statementId: r.statementId, series: [s], messages: r.messages, timeZone: r.timeZone }, opts));
      continue;
    }
    series.forEach((s, si) => {
      const lastSeries = si === series.length - 1;
      const n = Math.max(1, Math.ceil(s.values.length / chunkSize));
      for (let c = 0; c < n; c++) {
        const lastChunk = c === n - 1;
        const part = { ...s, values: s.values.slice(c * chunkSize, (c + 1) * chunkSize), partial: !lastChunk || undefined };
        lines.push(chunkToJson({ statementId: r.statementId, series: [part], messages: r.messages, partial: !(lastChunk && lastSeries) || undefined, timeZone: r.timeZone }, opts));
      }
    });
  }
  return lines;
}
