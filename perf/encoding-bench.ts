/**
 * Encoding benchmark: bytes per field value (timestamps + values, blocks of 1000 points per
 * series-field, as TSM stores them) and encode/decode throughput on one core, for the three
 * datasets of perf/datasets.ts. Results are recorded in perf/ENCODING.md.
 *
 *   node build/perf/encoding-bench.js [--points N] [--seconds S]
 */
import { encoding, FieldType } from '../engine/index.js';
import type { ValueColumn } from '../engine/index.js';
import { cpuOnly, edgeSensors } from './datasets.js';
import type { Dataset } from './datasets.js';

const BLOCK = 1000;
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const POINTS = arg('--points', 3000);
const SECONDS = arg('--seconds', 0.4);

interface Block {
  base: bigint;
  offsets: Float64Array;
  column: ValueColumn;
  start: number;
  end: number;
}

/** CPU seconds (user + system) used by this process so far. */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * Runs `fn` (which processes `values` values) until SECONDS of CPU time are spent; returns
 * values per CPU-second. CPU time rather than wall time because the benchmark machine is
 * shared: wall time would measure the neighbours' load as much as this code.
 */
function rate(values: number, fn: () => void): number {
  fn(); // warm-up
  let runs = 0;
  const t0 = cpuSeconds();
  let t = t0;
  do {
    fn();
    runs++;
    t = cpuSeconds();
  } while (t - t0 < SECONDS);
  return (values * runs) / (t - t0);
}

function slice(c: ValueColumn, s: number, e: number): ValueColumn {
  switch (c.type) {
    case FieldType.Float:
      return { type: c.type, values: c.values.slice(s, e) };
    case FieldType.Integer:
      return { type: c.type, values: c.values.slice(s, e) };
    case FieldType.Unsigned:
      return { type: c.type, values: c.values.slice(s, e) };
    case FieldType.Boolean:
      return { type: c.type, values: c.values.slice(s, e) };
    case FieldType.String:
      return { type: c.type, values: c.values.slice(s, e) };
  }
}

const FLOAT_KINDS = ['xor', 'decimal', 'delta'];
const INT_MODES = ['raw', 'rle', 's8b', 'rle-wide', 's8b-wide', 'huffman'];

/** The value section's leading encoding byte, named (block.ts layout: type, uvarint tlen, ts). */
function valueEncodingName(block: Uint8Array): string {
  let p = 1;
  let tlen = 0;
  for (let shift = 1; ; shift *= 128) {
    const x = block[p++]!;
    tlen += (x & 127) * shift;
    if (x < 128) break;
  }
  const mode = block[p + tlen]!;
  const names = block[0] === FieldType.Float ? FLOAT_KINDS : INT_MODES;
  return names[mode] ?? String(mode);
}

function bench(ds: Dataset): Record<string, string | number> {
  const blocks: Block[] = [];
  for (const f of ds.fields()) {
    for (let s = 0; s < f.offsets.length; s += BLOCK) {
      const e = Math.min(f.offsets.length, s + BLOCK);
      blocks.push({ base: f.base, offsets: f.offsets.slice(s, e), column: slice(f.column, s, e), start: 0, end: e - s });
    }
  }
  const values = blocks.reduce((n, b) => n + b.end, 0);
  const encoded = blocks.map((b) => encoding.encodeBlock(b.base, b.offsets, b.column, b.start, b.end));
  const bytes = encoded.reduce((n, b) => n + b.length, 0);
  const tsEncoded = blocks.map((b) => encoding.encodeTimestamps(b.base, b.offsets, b.start, b.end));
  const tsBytes = tsEncoded.reduce((n, b) => n + b.length, 0);
  const choices = new Map<string, number>();
  for (const e of encoded) {
    const name = valueEncodingName(e);
    choices.set(name, (choices.get(name) ?? 0) + 1);
  }
  const valueCols = blocks.map((b) =>
    b.column.type === FieldType.Float
      ? encoding.encodeFloatColumn(b.column.values, 0, b.end)
      : encoding.encodeIntegers(b.column.values as Float64Array, 0, b.end),
  );

  const encodeRate = rate(values, () => {
    for (const b of blocks) encoding.encodeBlock(b.base, b.offsets, b.column, b.start, b.end);
  });
  const decodeRate = rate(values, () => {
    for (let i = 0; i < encoded.length; i++) encoding.decodeBlock(encoded[i]!, blocks[i]!.base);
  });
  const buffers = { offsets: new Float64Array(BLOCK), numbers: new Float64Array(BLOCK), booleans: new Uint8Array(BLOCK) };
  const decodeReuseRate = rate(values, () => {
    for (let i = 0; i < encoded.length; i++) encoding.decodeBlock(encoded[i]!, blocks[i]!.base, buffers);
  });
  const tsOut = new Float64Array(BLOCK);
  const tsDecodeRate = rate(values, () => {
    for (let i = 0; i < tsEncoded.length; i++) encoding.decodeTimestamps(tsEncoded[i]!, blocks[i]!.base, tsOut);
  });
  const valueDecodeRate = rate(values, () => {
    for (let i = 0; i < valueCols.length; i++) {
      const b = blocks[i]!;
      if (b.column.type === FieldType.Float) encoding.decodeFloatColumn(valueCols[i]!, b.end, tsOut);
      else encoding.decodeIntegers(valueCols[i]!, b.end);
    }
  });
  const m = (x: number): string => (x / 1e6).toFixed(1);
  return {
    dataset: ds.name,
    'series-fields': blocks.length / Math.ceil(POINTS / BLOCK),
    values,
    'B/value': (bytes / values).toFixed(3),
    'ts B/value': (tsBytes / values).toFixed(3),
    'values B/value': ((bytes - tsBytes) / values).toFixed(3),
    'value encodings (blocks)': [...choices].map(([k, n]) => `${k} ${n}`).join(', '),
    'encode M/s': m(encodeRate),
    'decode M/s': m(decodeRate),
    'decode, reused buffers M/s': m(decodeReuseRate),
    'ts decode M/s': m(tsDecodeRate),
    'value decode M/s': m(valueDecodeRate),
  };
}

const rows = [cpuOnly({ points: POINTS }), edgeSensors({ points: POINTS }), cpuOnly({ points: POINTS, floats: true })].map(bench);
const cols = Object.keys(rows[0]!);
console.log(`| ${cols.join(' | ')} |`);
console.log(`|${cols.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${cols.map((c) => r[c]).join(' | ')} |`);
