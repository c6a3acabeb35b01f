/**
 * 1.x CSV results (`Accept: text/csv` or `application/csv`): a header `name,tags,<columns>`
 * whenever the columns change (with a blank line before a new header), tags as `k=v,k2=v2`
 * (line-protocol escaped, empty values left out),
 * times as integers (ns unless `epoch` says otherwise, never RFC 3339), null as an empty
 * cell; statement errors are left out.
 */
import type { Cell, ResultSeries, StatementResult } from '../../ql/index.js';
import { hasTimeColumn } from '../../ql/index.js';
import { formatTimeNs, type Epoch } from './epoch.js';
import { formatFloatF } from './go-float.js';
import type { AnswerDocument } from './answer-document.js';

function quote(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** 1.x prints the tag set's hash key: keys and values escaped as in line protocol, empty values left out. */
function tagsText(tags: Readonly<Record<string, string>>): string {
  const esc = (x: string) => x.replace(/[,= ]/g, (c) => `\\${c}`);
  return Object.keys(tags)
    .sort()
    .filter((k) => tags[k] !== '')
    .map((k) => `${esc(k)}=${esc(tags[k]!)}`)
    .join(',');
}

function cellText(c: Cell): string {
  if (c === null) return '';
  if (typeof c === 'string') return quote(c);
  if (typeof c === 'number') return Number.isFinite(c) ? formatFloatF(c) : '';
  return String(c);
}

/** A series' header line (without its newline). */
export function csvHeader(s: ResultSeries): string {
  return ['name', 'tags', ...s.columns].map(quote).join(',');
}

/** The `name,tags` cells every row of a series starts with. */
export function csvSeriesPrefix(s: ResultSeries): string {
  return `${quote(s.name ?? '')},${quote(tagsText(s.tags ?? {}))}`;
}

/** A row's cells after the prefix. */
export function csvCells(s: ResultSeries, row: readonly Cell[], timeFirst: boolean, epoch: Epoch | undefined): string {
  const cells = row.map((c, i) =>
    i === 0 && timeFirst && typeof c === 'bigint' ? String(formatTimeNs(c, epoch ?? 'ns')) : s.goIntColumns?.includes(i) ? quote(s.columns[i]!) : cellText(c),
  );
  return cells.join(',');
}

export function resultsToCsv(results: readonly StatementResult[], epoch: Epoch | undefined): string {
  const doc = new CsvDocument(epoch);
  let out = '';
  for (const r of results) out += doc.statement(r);
  return out;
}

/**
 * CSV written statement by statement and piece by piece (a streamed answer writes it as it
 * comes; `resultsToCsv` is the same document at once). Errors and `not executed` print nothing.
 */
export class CsvDocument implements AnswerDocument {
  #wroteAny = false;
  #lastHeader: string | undefined;
  /** The open series' `name,tags` prefix (a series continued by the next piece keeps it). */
  #prefix: string | undefined;

  constructor(private readonly epoch: Epoch | undefined) {}

  begin(): string {
    return '';
  }

  statement(r: StatementResult): string {
    let out = this.openStatement(r.statementId);
    // A whole result's series prints its header even without rows (1.x); a streamed one starts with a row.
    for (const s of r.series ?? []) out += this.#series(s, false);
    return out;
  }

  openStatement(_id: number): string {
    this.#lastHeader = undefined;
    this.#prefix = undefined;
    return '';
  }

  piece(_id: number, s: ResultSeries, more: boolean): string {
    if (this.#prefix === undefined && s.values.length === 0) return '';
    return this.#series(s, more);
  }

  #series(s: ResultSeries, more: boolean): string {
    let out = '';
    if (this.#prefix === undefined) {
      const header = csvHeader(s);
      if (header !== this.#lastHeader) {
        if (this.#wroteAny) out += '\n';
        out += header + '\n';
        this.#lastHeader = header;
        this.#wroteAny = true;
      }
      this.#prefix = csvSeriesPrefix(s);
    }
    const prefix = this.#prefix;
    const timeFirst = hasTimeColumn(s);
    for (const row of s.values) out += `${prefix},${csvCells(s, row, timeFirst, this.epoch)}\n`;
    if (!more) this.#prefix = undefined;
    return out;
  }

  closeStatement(_r: StatementResult): string {
    this.#prefix = undefined;
    return '';
  }

  end(_notExecuted: StatementResult | undefined): string {
    return '';
  }
}

export function errorCsv(message: string): string {
  return `error\n${quote(message).startsWith('"') ? quote(message) : `"${message}"`}\n`;
}
