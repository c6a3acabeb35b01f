/**
 * Streams one statement's series as 1.x chunk lines. One piece is held back so its flags can
 * be set once we know what follows: `partial` on the series while the same series continues,
 * `partial` on the result while anything else of the statement follows, nothing on the
 * statement's last line.
 */
import type { ResultSeries, SeriesSink, StatementResult } from '../../ql/index.js';
import type { ChunkStyle } from './chunk-style.js';
import { chunkLines } from './chunks.js';
import { chunkToJson, type JsonOptions } from './json.js';

export class StatementChunkWriter implements SeriesSink {
  private held: { series: ResultSeries; more: boolean } | undefined;
  private wrote = false;

  constructor(
    private readonly statementId: number,
    readonly chunkSize: number,
    private readonly opts: JsonOptions,
    private readonly write: (line: string) => Promise<void>,
    /** Layout of a result that was not streamed (meta statements), see chunk-style.ts. */
    private readonly style: ChunkStyle = 'rows',
    /** The statement's TZ() zone: streamed rows print their times with its offset. */
    private readonly timeZone?: string,
  ) {}

  async push(series: ResultSeries, more: boolean): Promise<void> {
    if (series.values.length === 0 && !more) {
      if (this.held) this.held.more = false;
      return;
    }
    if (this.held) await this.emit(this.held, true);
    this.held = { series, more };
  }

  private async emit(h: { series: ResultSeries; more: boolean }, statementContinues: boolean): Promise<void> {
    this.wrote = true;
    const series = { ...h.series, partial: h.more || undefined };
    await this.write(chunkToJson({ statementId: this.statementId, series: [series], partial: statementContinues || undefined, timeZone: this.timeZone }, this.opts));
  }

  /** The statement finished: flush the held piece, or write its non-streamed result. */
  async finish(result: StatementResult): Promise<void> {
    if (this.held) {
      const h = this.held;
      this.held = undefined;
      await this.emit(h, false);
      return;
    }
    if (this.wrote && !result.error) return;
    for (const line of chunkLines([result], this.chunkSize, this.opts, this.style)) await this.write(line);
  }
}
