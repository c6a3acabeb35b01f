/**
 * Deterministic benchmark datasets. Every series' tags and every field draw from their own
 * seeded PRNG stream, so a field's first k points depend only on (seed, dataset, series index,
 * field), never on how many series or points are generated or in which order they are consumed.
 *
 * cpuOnly()        TSBS "cpu-only": 100 hosts × 10 tags, 10 usage_* fields, one point per 10 s.
 *                  Each field is TSBS's clamped random walk (state in [0, 100], N(0, 1) steps,
 *                  initial state uniform); `floats: false` truncates to integers as TSBS's
 *                  InfluxDB output does (usage_user=58i), `floats: true` keeps full precision.
 * edgeSensors()    100 devices, 3 tags (device_id, site, model), one point per 1 s. Device i
 *                  carries the first 1 + i mod 4 of: temperature (float, N(0, 0.05) steps,
 *                  0.1 resolution), humidity (float, N(0, 0.1) steps, 0.05 resolution),
 *                  battery (int %, drains ~1 % per 10 min), rssi (int dBm, slow walk + N(0, 1.5)).
 *
 * A dataset yields series (all fields of one series), series-fields (one column each, the
 * unit a TSM block holds) or line-protocol lines in time order across series.
 */
import { FieldType } from '../engine/index.js';
import type { Tag, ValueColumn } from '../engine/index.js';

/** TSBS's default start, 2016-01-01T00:00:00Z, in ns. */
export const TSBS_START = 1_451_606_400_000_000_000n;

export interface FieldData {
  readonly name: string;
  readonly column: ValueColumn;
}

export interface SeriesData {
  readonly measurement: string;
  readonly tags: readonly Tag[];
  readonly seriesKey: string;
  /** Timestamps are `base + offsets[i]` ns. */
  readonly base: bigint;
  readonly offsets: Float64Array;
  readonly fields: readonly FieldData[];
}

export interface SeriesField {
  readonly seriesKey: string;
  readonly field: string;
  readonly base: bigint;
  readonly offsets: Float64Array;
  readonly column: ValueColumn;
}

export interface Dataset {
  readonly name: string;
  series(): Generator<SeriesData>;
  fields(): Generator<SeriesField>;
  lines(): Generator<string>;
}

export interface DatasetOptions {
  /** Points per series. */
  readonly points?: number;
  readonly seed?: number;
  readonly start?: bigint;
  /** Number of hosts / devices. */
  readonly series?: number;
}

/** sfc32: small, fast, good enough statistically, and reproducible across platforms. */
export function prng(seed: number, stream: number): () => number {
  let a = seed >>> 0;
  let b = (stream * 0x9e3779b9) >>> 0;
  let c = 0x243f6a88 ^ stream;
  let d = 1;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

export function normal(rand: () => number): number {
  const u = 1 - rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)]!;
}

function seriesKeyOf(measurement: string, tags: readonly Tag[]): string {
  return [measurement, ...[...tags].sort((x, y) => (x.key < y.key ? -1 : 1)).map((t) => `${t.key}=${t.value}`)].join(',');
}

function regular(points: number, stepNs: number): Float64Array {
  const t = new Float64Array(points);
  for (let i = 0; i < points; i++) t[i] = i * stepNs;
  return t;
}

const REGIONS = ['us-east-1', 'us-west-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-1', 'ap-southeast-2', 'ap-northeast-1', 'sa-east-1'];
const CPU_FIELDS = ['usage_user', 'usage_system', 'usage_idle', 'usage_nice', 'usage_iowait', 'usage_irq', 'usage_softirq', 'usage_steal', 'usage_guest', 'usage_guest_nice'];

function cpuTags(rand: () => number, host: number): Tag[] {
  const region = pick(rand, REGIONS);
  return [
    { key: 'hostname', value: `host_${host}` },
    { key: 'region', value: region },
    { key: 'datacenter', value: `${region}${pick(rand, ['a', 'b', 'c'])}` },
    { key: 'rack', value: String(Math.floor(rand() * 100)) },
    { key: 'os', value: pick(rand, ['Ubuntu16.10', 'Ubuntu16.04LTS', 'Ubuntu15.10']) },
    { key: 'arch', value: pick(rand, ['x64', 'x86']) },
    { key: 'team', value: pick(rand, ['SF', 'NYC', 'LON', 'CHI']) },
    { key: 'service', value: String(Math.floor(rand() * 20)) },
    { key: 'service_version', value: String(Math.floor(rand() * 2)) },
    { key: 'service_environment', value: pick(rand, ['production', 'staging', 'test']) },
  ];
}

/** TSBS cpu-only; integer fields unless `floats`. */
export function cpuOnly(opts: DatasetOptions & { readonly floats?: boolean } = {}): Dataset {
  const { points = 1000, seed = 1, start = TSBS_START, series = 100, floats = false } = opts;
  function* gen(): Generator<SeriesData> {
    for (let h = 0; h < series; h++) {
      const tags = cpuTags(prng(seed, h * 64), h);
      const fields = CPU_FIELDS.map((name, j): FieldData => {
        const rand = prng(seed, h * 64 + 1 + j);
        const v = new Float64Array(points);
        let x = rand() * 100;
        for (let i = 0; i < points; i++) {
          x = Math.min(100, Math.max(0, x + normal(rand)));
          v[i] = floats ? x : Math.floor(x);
        }
        return { name, column: floats ? { type: FieldType.Float, values: v } : { type: FieldType.Integer, values: v } };
      });
      yield { measurement: 'cpu', tags, seriesKey: seriesKeyOf('cpu', tags), base: start, offsets: regular(points, 10e9), fields };
    }
  }
  return dataset(floats ? 'cpu-float' : 'cpu', gen);
}

const SENSOR_FIELDS = ['temperature', 'humidity', 'battery', 'rssi'] as const;

function sensorColumn(name: (typeof SENSOR_FIELDS)[number], rand: () => number, points: number): ValueColumn {
  const v = new Float64Array(points);
  if (name === 'temperature') {
    let x = 15 + rand() * 10;
    for (let i = 0; i < points; i++) v[i] = Math.round((x += 0.05 * normal(rand)) * 10) / 10;
    return { type: FieldType.Float, values: v };
  }
  if (name === 'humidity') {
    let x = 30 + rand() * 40;
    for (let i = 0; i < points; i++) {
      x = Math.min(100, Math.max(0, x + 0.1 * normal(rand)));
      v[i] = Math.round(x * 20) / 20;
    }
    return { type: FieldType.Float, values: v };
  }
  if (name === 'battery') {
    let x = 50 + rand() * 50;
    for (let i = 0; i < points; i++) v[i] = Math.round((x = Math.max(0, x - rand() / 300)));
    return { type: FieldType.Integer, values: v };
  }
  let mean = -60 + rand() * 20;
  for (let i = 0; i < points; i++) v[i] = Math.round((mean += 0.02 * normal(rand)) + 1.5 * normal(rand));
  return { type: FieldType.Integer, values: v };
}

/** Edge sensors: quantised floats and integers, one point per second. */
export function edgeSensors(opts: DatasetOptions = {}): Dataset {
  const { points = 1000, seed = 1, start = TSBS_START, series = 100 } = opts;
  function* gen(): Generator<SeriesData> {
    for (let d = 0; d < series; d++) {
      const rand = prng(seed ^ 0x5e5, d * 64);
      const tags: Tag[] = [
        { key: 'device_id', value: `dev_${d}` },
        { key: 'model', value: pick(rand, ['th-100', 'th-200', 'env-3', 'env-4']) },
        { key: 'site', value: `site_${Math.floor(rand() * 10)}` },
      ];
      const fields = SENSOR_FIELDS.slice(0, 1 + (d % 4)).map(
        (name, j): FieldData => ({ name, column: sensorColumn(name, prng(seed ^ 0x5e5, d * 64 + 1 + j), points) }),
      );
      yield { measurement: 'sensors', tags, seriesKey: seriesKeyOf('sensors', tags), base: start, offsets: regular(points, 1e9), fields };
    }
  }
  return dataset('sensor', gen);
}

function formatValue(c: ValueColumn, i: number): string {
  switch (c.type) {
    case FieldType.Float:
      return String(c.values[i]);
    case FieldType.Integer:
      return `${c.values[i]}i`;
    case FieldType.Unsigned:
      return `${c.values[i]}u`;
    case FieldType.Boolean:
      return c.values[i] ? 'true' : 'false';
    case FieldType.String:
      return JSON.stringify(c.values[i]);
  }
}

function dataset(name: string, gen: () => Generator<SeriesData>): Dataset {
  return {
    name,
    series: gen,
    *fields() {
      for (const s of gen()) {
        for (const f of s.fields) yield { seriesKey: s.seriesKey, field: f.name, base: s.base, offsets: s.offsets, column: f.column };
      }
    },
    *lines() {
      // Time-major across series, the order a fleet of agents would write in.
      const all = [...gen()];
      const points = all[0]?.offsets.length ?? 0;
      for (let i = 0; i < points; i++) {
        for (const s of all) {
          const head = [s.measurement, ...s.tags.map((t) => `${t.key}=${t.value}`)].join(',');
          const fields = s.fields.map((f) => `${f.name}=${formatValue(f.column, i)}`).join(',');
          yield `${head} ${fields} ${s.base + BigInt(s.offsets[i]!)}`;
        }
      }
    },
  };
}
