/**
 * Generic synthetic line protocol for the write path's JIT warm-up (warmup.ts): the shapes
 * agents commonly send, not any particular workload. A steady fleet of series in a few
 * measurements, scraped every 1, 10 or 60 s (one measurement with sub-second jitter), with two
 * to four tags (a few escaped) and one to six fields of every type (floats of a few decimals
 * and of full precision, integers, the odd unsigned, boolean and string); every third body
 * also brings series never seen before, as a growing fleet does (the point-by-point path),
 * every other time in a new measurement (new fields). Field values walk in steps from much
 * smaller than their resolution (mostly repeats) to noisy.
 * Enough points per series to fill whole TSM blocks once the level-0 files are compacted.
 *
 * Deterministic (a seeded PRNG) so that a start-up always does the same work.
 */
import { mulberry32 } from '../random.js';

/** A body and the precision its timestamps are written in. */
export interface WarmupBody {
  readonly body: Buffer;
  readonly precision: 'ns' | 's';
}

export interface WarmupShape {
  readonly bodies: number;
  readonly linesPerBody: number;
  /** Series of the steady fleet (spread over the measurements). */
  readonly series: number;
  /** New series in every third body. */
  readonly newSeries: number;
  /** ns since the epoch of the first scrape (the caller's clock, so the points fall in one recent shard). */
  readonly startNs: bigint;
}

type FieldKind = 'decimal' | 'double' | 'integer' | 'unsigned' | 'boolean' | 'string';

interface SeriesShape {
  readonly key: string;
  readonly fields: readonly { readonly name: string; readonly kind: FieldKind }[];
  /** Scrape interval and jitter bound, ns. */
  readonly intervalNs: bigint;
  readonly jitterNs: number;
  /** The state of each field's random walk, and its step. */
  readonly walk: number[];
  readonly step: readonly number[];
}

const MEASUREMENTS = ['system', 'disk', 'net', 'app_requests', 'env'];
const INTERVALS_NS = [1_000_000_000n, 10_000_000_000n, 1_000_000_000n, 60_000_000_000n, 10_000_000_000n];
const JITTER_NS = [0, 0, 0, 0, 250_000_000];
const FIELD_NAMES = ['value', 'used', 'free', 'rate', 'count', 'errors', 'latency', 'level', 'ok', 'status'];
const KINDS: readonly FieldKind[] = ['decimal', 'decimal', 'decimal', 'double', 'integer', 'integer', 'unsigned', 'boolean', 'string'];

/** Random-walk steps: from values that mostly repeat at their resolution to noisy ones. */
const STEPS = [0.02, 0.3, 4, 40];

/** Series `s` of the fleet; `plugin` names another measurement, typed as measurement `m` of the fleet. */
function seriesShape(s: number, host: string, rand: () => number, plugin?: { readonly name: string; readonly m: number }): SeriesShape {
  const m = plugin?.m ?? s % MEASUREMENTS.length;
  const tags = [`host=${host}`, `zone=z${s % 3}`];
  if (s % 2 === 0) tags.push(`service=svc${s % 7}`);
  if (s % 5 === 0) tags.push('path=/var/lib\\ data');
  tags.sort();
  // Distinct names (3 is prime to 10); a field's type depends only on its measurement and
  // name, so that no write of the warm-up is refused for a type conflict.
  const fields = Array.from({ length: 1 + (s % 6) }, (_, j) => {
    const name = (s + j * 3) % FIELD_NAMES.length;
    return { name: FIELD_NAMES[name]!, kind: KINDS[(m * 7 + name) % KINDS.length]! };
  });
  return { key: `${plugin?.name ?? MEASUREMENTS[m]!},${tags.join(',')}`, fields, intervalNs: INTERVALS_NS[m]!, jitterNs: JITTER_NS[m]!, walk: fields.map(() => rand() * 100), step: fields.map((_, j) => STEPS[(s + j) % STEPS.length]!) };
}

function formatField(f: SeriesShape['fields'][number], shape: SeriesShape, j: number, rand: () => number): string {
  const v = (shape.walk[j] = Math.max(0, shape.walk[j]! + (rand() - 0.5) * shape.step[j]!));
  switch (f.kind) {
    case 'decimal':
      return `${f.name}=${v.toFixed(1 + (j % 2))}`;
    case 'double':
      return `${f.name}=${v * Math.PI}`;
    case 'integer':
      return `${f.name}=${Math.round(v * 1000) - 20_000}i`;
    case 'unsigned':
      return `${f.name}=${Math.round(v * 10)}u`;
    case 'boolean':
      return `${f.name}=${v > 50 ? 't' : 'false'}`;
    case 'string':
      return `${f.name}="state ${Math.floor(v / 25)}"`;
  }
}

function line(shape: SeriesShape, scrape: number, startNs: bigint, precision: 'ns' | 's', rand: () => number): string {
  const jitter = shape.jitterNs === 0 ? 0n : BigInt(Math.floor(rand() * shape.jitterNs));
  const ns = startNs + BigInt(scrape) * shape.intervalNs + jitter;
  const ts = precision === 's' ? ns / 1_000_000_000n : ns;
  return `${shape.key} ${shape.fields.map((f, j) => formatField(f, shape, j, rand)).join(',')} ${ts}`;
}

/**
 * The warm-up bodies, in write order, each made when it is asked for: bodies made ahead would
 * live through young-generation collections and make V8 grow the event loop's new space (the
 * server's peak RSS).
 */
export function* warmupBodies(shape: WarmupShape): Generator<WarmupBody> {
  const rand = mulberry32(0x5eed);
  const fleet = Array.from({ length: shape.series }, (_, s) => seriesShape(s, `node-${s}`, rand));
  let scrape = 0;
  let s = 0;
  for (let b = 0; b < shape.bodies; b++) {
    const lines: string[] = [];
    // Every seventh body is written in seconds, as some clients do.
    const precision = b % 7 === 6 ? 's' : 'ns';
    if (b % 3 === 0) {
      // A new measurement (new fields too) of a new plugin, or new hosts of a known one.
      const plugin = b % 2 === 0 ? { name: `plugin_${b}`, m: b % MEASUREMENTS.length } : undefined;
      for (let n = 0; n < shape.newSeries; n++) lines.push(line(seriesShape(n, `edge-${b}-${n}`, rand, plugin), scrape, shape.startNs, precision, rand));
    }
    while (lines.length < shape.linesPerBody) {
      lines.push(line(fleet[s]!, scrape, shape.startNs, precision, rand));
      if (++s === fleet.length) {
        s = 0;
        scrape++;
      }
    }
    yield { body: Buffer.from(lines.join('\n') + '\n'), precision };
  }
}
