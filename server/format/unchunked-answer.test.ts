/**
 * A non-chunked answer streamed piece by piece is the same document as the buffered one, for
 * random batches (statements of streamed SELECT series and of whole results, failures, answers
 * switching to streaming at any cell count); where it cannot be (a failure after rows went
 * out), the connection is cut rather than the body ended.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Cell, ResultSeries, StatementResult } from '../../ql/index.js';
import { hasTimeColumn } from '../../ql/index.js';
import { resultsToJson } from './json.js';
import { JsonDocument } from './json-document.js';
import { PrettyJsonDocument } from './pretty-json-document.js';
import { CsvDocument, csvCells, csvHeader, csvSeriesPrefix, resultsToCsv } from './csv.js';
import { mergeResults } from './merge-results.js';
import { UnchunkedAnswer } from './unchunked-answer.js';
import type { Epoch } from './epoch.js';

const cell: fc.Arbitrary<Cell> = fc.oneof(fc.constant(null), fc.double(), fc.integer({ min: -5, max: 2000 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.string({ maxLength: 4 }), fc.boolean());
const rows = (width: number) => fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 62n }), fc.array(cell, { minLength: width, maxLength: width })).map(([t, r]) => [t, ...r]), { minLength: 1, maxLength: 7 });
const series: fc.Arbitrary<ResultSeries> = fc.integer({ min: 1, max: 3 }).chain((width) =>
  fc.record({
    name: fc.constantFrom('cpu', 'm"x', ''),
    tags: fc.option(fc.dictionary(fc.constantFrom('host', 'dc'), fc.string({ maxLength: 3 })), { nil: undefined }),
    columns: fc.constant(['time', ...Array.from({ length: width }, (_, i) => `f${i}`)]),
    values: rows(width),
  }),
);

interface Step {
  readonly kind: 'select' | 'whole';
  readonly series: ResultSeries[];
  /** Cut points of each series' rows into pushed pieces (fractions). */
  readonly cuts: number[][];
  /** A trailing empty piece closes the series (select.ts does this after aggregate rows). */
  readonly emptyClose: boolean[];
  /** A series without rows comes before this one: its one empty piece prints nothing. */
  readonly emptyOpen: boolean[];
  readonly messages?: { level: string; text: string }[];
}

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom('select' as const, 'select' as const, 'whole' as const),
  series: fc.array(series, { maxLength: 3 }),
  cuts: fc.array(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }), { minLength: 3, maxLength: 3 }),
  emptyClose: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  emptyOpen: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  messages: fc.option(fc.constant([{ level: 'warning', text: 'deprecated use' }]), { nil: undefined }),
});

/** A failure: at which statement, after how many of its series, answered as which id. */
const failure = fc.option(fc.record({ at: fc.nat(3), afterSeries: fc.nat(2), asZero: fc.boolean(), text: fc.constantFrom('boom', 'max-select-buckets limit exceeded') }), { nil: undefined });

function pieces(values: ResultSeries['values'], cuts: readonly number[]): ResultSeries['values'][] {
  const at = [...new Set(cuts.map((c) => Math.floor(c * values.length)).filter((i) => i > 0 && i < values.length))].sort((a, b) => a - b);
  const out: ResultSeries['values'][] = [];
  let from = 0;
  for (const i of [...at, values.length]) {
    out.push(values.slice(from, i));
    from = i;
  }
  return out;
}

class Collector {
  text = '';
  ended = false;
  aborted = false;
  opened = 0;
  stream() {
    this.opened++;
    return {
      write: async (t: string) => {
        assert.ok(!this.ended && !this.aborted, 'no write after the end');
        this.text += t;
      },
      end: () => (this.ended = true),
      abort: () => (this.aborted = true),
    };
  }
}

/** Runs the batch as the executor would; returns the buffered document and the streamed one. */
type Format = 'json' | 'pretty' | 'csv';

/**
 * 1.x's CSV layout written plainly (csv.ts's document is shared by its streamed and buffered
 * answers, so it cannot be its own reference): a header whenever a statement's columns change,
 * a blank line before every header but the first, every row prefixed with its series' name and tags.
 */
function csvModel(results: readonly StatementResult[], epoch: Epoch | undefined): string {
  const lines: string[] = [];
  for (const r of results) {
    let header: string | undefined;
    for (const s of r.series ?? []) {
      if (csvHeader(s) !== header) {
        if (lines.length > 0) lines.push('');
        lines.push((header = csvHeader(s)));
      }
      for (const row of s.values) lines.push(csvSeriesPrefix(s) + ',' + csvCells(s, row, hasTimeColumn(s), epoch));
    }
  }
  return lines.map((l) => l + '\n').join('');
}

/** The buffered writer of each format: what a streamed answer must equal. */
function buffered(format: Format, results: readonly StatementResult[], statementCount: number, epoch: Epoch | undefined): string {
  const merged = mergeResults(results, statementCount);
  if (format !== 'csv') return resultsToJson(merged, { epoch, pretty: format === 'pretty' });
  const text = resultsToCsv(merged, epoch);
  assert.equal(text, csvModel(merged, epoch));
  return text;
}

async function run(
  steps: readonly Step[],
  fail: { at: number; afterSeries: number; asZero: boolean; text: string } | undefined,
  streamAfterCells: number,
  epoch: Epoch | undefined,
  format: Format = 'json',
) {
  const out = new Collector();
  const document = () => (format === 'csv' ? new CsvDocument(epoch) : format === 'pretty' ? new PrettyJsonDocument(epoch, () => undefined) : new JsonDocument(epoch, () => undefined));
  const answer = new UnchunkedAnswer({ document, streamAfterCells, open: () => out.stream() });
  const whole: StatementResult[] = [];
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const failsHere = fail !== undefined && fail.at === i;
    if (s.kind === 'whole') {
      const r: StatementResult = failsHere ? { statementId: fail.asZero ? 0 : i, error: fail.text } : { statementId: i, series: s.series, messages: s.messages };
      whole.push(r);
      await answer.finish(r);
      if (failsHere) break;
      continue;
    }
    const sink = answer.sinkFor(i);
    const sent: ResultSeries[] = [];
    for (let j = 0; j < s.series.length; j++) {
      if (failsHere && j >= fail.afterSeries) break;
      const ser = s.series[j]!;
      const ps = pieces(ser.values, s.cuts[j % 3]!);
      if (s.emptyOpen[j % 3]) await sink.push({ name: 'ghost', columns: ['time', 'ghost'], values: [] }, false);
      for (let p = 0; p < ps.length; p++) await sink.push({ ...ser, values: ps[p]! }, p < ps.length - 1 || s.emptyClose[j % 3]!);
      if (s.emptyClose[j % 3]) await sink.push({ ...ser, values: [] }, false);
      sent.push(ser);
    }
    const r: StatementResult = failsHere ? { statementId: fail.asZero ? 0 : i, error: fail.text } : { statementId: i, series: [], messages: s.messages };
    whole.push(failsHere ? r : { ...r, series: sent });
    await answer.finish(r);
    if (failsHere) break;
  }
  const expected = buffered(format, whole, steps.length, epoch);
  return { expected, buffered: await answer.end(steps.length), out };
}

for (const format of ['json', 'pretty', 'csv'] as const)
test(`streamed or buffered, a non-chunked ${format} answer is the buffered document (or a cut body)`, async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), failure, fc.integer({ min: 0, max: 60 }), fc.constantFrom<Epoch | undefined>(undefined, 'ns', 'ms'), async (steps, fail, limit, epoch) => {
      const { expected, buffered: held, out } = await run(steps, fail, limit, epoch, format);
      if (held) {
        assert.equal(out.opened, 0);
        assert.equal(buffered(format, held, steps.length, epoch), expected);
        return;
      }
      assert.equal(out.opened, 1);
      if (out.aborted) {
        assert.ok(fail !== undefined, 'only a failure cuts an answer');
        assert.ok(!out.ended);
        return;
      }
      assert.ok(out.ended);
      assert.equal(out.text, expected);
    }),
    { numRuns: 3000 },
  );
});

test('a streamed series of more than 10,000 rows is one series marked partial, as the buffered answer', async () => {
  const values = Array.from({ length: 25_001 }, (_, i) => [BigInt(i) * 1_000_000_000n, i] as Cell[]);
  const ser: ResultSeries = { name: 'm', tags: { s: 'a' }, columns: ['time', 'v'], values };
  const step: Step = { kind: 'select', series: [ser, { ...ser, tags: { s: 'b' }, values: values.slice(0, 10_000) }], cuts: [[0.2, 0.6], [0.5], []], emptyClose: [false, true, false], emptyOpen: [false, false, false] };
  for (const format of ['json', 'pretty'] as const)
    for (const limit of [0, 30_000, 1_000_000]) {
      const { expected, buffered, out } = await run([step], undefined, limit, undefined, format);
      const text = buffered ? resultsToJson(mergeResults(buffered, 1), { epoch: undefined, pretty: format === 'pretty' }) : out.text;
      assert.equal(text, expected, `${format}, limit ${limit}`);
      assert.equal(buffered === undefined, limit < 70_000, `streamed past the limit only (${limit})`);
      if (format === 'json') assert.match(text, /,25000\]\],"partial":true\},\{"name":"m","tags":\{"s":"b"\}/);
      else assert.match(text, /25000\n {24}\]\n {20}\],\n {20}"partial": true\n {16}\},\n {16}\{\n {20}"name": "m"/);
    }
});

test('a failure after rows were streamed cuts the body; before any, it is answered', async () => {
  const ser: ResultSeries = { name: 'm', columns: ['time', 'v'], values: [[1n, 1], [2n, 2], [3n, 3]] };
  const select: Step = { kind: 'select', series: [ser, ser], cuts: [[0.5], [], []], emptyClose: [false, false, false], emptyOpen: [true, false, false] };
  const cut = await run([select, select], { at: 0, afterSeries: 1, asZero: false, text: 'boom' }, 2, undefined);
  assert.ok(cut.out.aborted && !cut.out.ended && cut.buffered === undefined);
  // Statement 0 streamed whole; statement 1 fails before its first row: its error is answered.
  const answered = await run([select, select], { at: 1, afterSeries: 0, asZero: false, text: 'boom' }, 2, undefined);
  assert.ok(answered.out.ended && !answered.out.aborted);
  assert.equal(answered.out.text, answered.expected);
  assert.match(answered.out.text, /\{"statement_id":1,"error":"boom"\}\]\}\n$/);
  // An error answered as statement 0 would replace statement 0's streamed rows: cut.
  const replaced = await run([select, select, select], { at: 1, afterSeries: 0, asZero: true, text: 'rewrite' }, 2, undefined);
  assert.ok(replaced.out.aborted && !replaced.out.ended);
  // Below the limit the same batch is buffered, merged as 1.x: the error then `not executed`.
  const merged = await run([select, select, select], { at: 1, afterSeries: 0, asZero: true, text: 'rewrite' }, 1_000, undefined);
  assert.equal(resultsToJson(mergeResults(merged.buffered!, 3), { epoch: undefined, pretty: false }), '{"results":[{"statement_id":0,"error":"rewrite"},{"statement_id":1,"error":"not executed"}]}\n');
});
