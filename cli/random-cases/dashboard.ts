/**
 * Random cases of the shapes monitoring tools send, over a Telegraf-like database of their own:
 * Grafana's InfluxQL editor (`SELECT mean("f") FROM "db"."autogen"."m" WHERE ("host" =~ /^(a|b)$/)
 * AND time >= 1700000000000ms and time <= ...ms GROUP BY time(10s), "host" fill(null)`, its raw
 * mode, math and aliases, several statements joined by `;`, `epoch=ms`), its template-variable
 * and ad-hoc-filter SHOW queries, Chronograf's `ON "db"` forms and `GROUP BY time(..), *`, and
 * Telegraf's write (gzip body, `consistency=any`, `rp=` empty, no precision).
 *
 * The data straddles a shard-group boundary (1.6.7's default policy has 7-day groups starting on
 * Mondays), so SHOW statements meet two shards. Every query names both time bounds as Grafana
 * does, so answers never depend on the wall clock. SLIMIT also over windows spanning both
 * groups: 1.6.7 pages each shard on its own (followed since session 27, shard-tag-sets.ts).
 */
import type { Picker } from './pick.js';

/** 2023-11-20T00:00:00Z, a Monday: 1.6.7's 7-day shard groups start on Mondays (Go's Truncate). */
export const SHARD_BOUNDARY_SEC = 1700438400;
const SPAN_SEC = 7200;
const STEP_SEC = 60;
const HOSTS = ['a', 'b', 'c'];

interface Shape {
  readonly numeric: readonly string[];
  readonly counters?: readonly string[];
  readonly tags: Readonly<Record<string, readonly string[]>>;
}

const SHAPES: Readonly<Record<string, Shape>> = {
  cpu: { numeric: ['usage_user', 'usage_system', 'usage_idle'], tags: { host: HOSTS, cpu: ['cpu-total', 'cpu0'] } },
  mem: { numeric: ['used', 'available_percent'], tags: { host: HOSTS } },
  disk: { numeric: ['used', 'used_percent'], tags: { host: HOSTS, path: ['/', '/boot'], device: ['sda1', 'sda2'] } },
  net: { numeric: ['bytes_recv', 'bytes_sent', 'err_in'], counters: ['bytes_recv', 'bytes_sent', 'err_in'], tags: { host: HOSTS, interface: ['eth0', 'lo'] } },
  system: { numeric: ['load1', 'n_cpus'], tags: { host: HOSTS } },
};

const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The database's points as Telegraf writes them (ns timestamps, some off the minute by a few
 * ms as its collection jitter leaves them); host c is silent for half an hour, b's eth0
 * counters reset an hour after the boundary.
 */
export function dashboardData(p: Picker): string {
  const lines: string[] = [];
  for (let t = SHARD_BOUNDARY_SEC - SPAN_SEC; t < SHARD_BOUNDARY_SEC + SPAN_SEC; t += STEP_SEC) {
    const ns = `${BigInt(t) * 1_000_000_000n + BigInt(p.chance(0.3) ? Math.floor(p.r() * 50) * 1_000_000 : 0)}`;
    const i = (t - SHARD_BOUNDARY_SEC + SPAN_SEC) / STEP_SEC;
    for (const host of HOSTS) {
      if (host === 'c' && i >= 40 && i < 70) continue;
      for (const cpu of SHAPES.cpu!.tags.cpu!) {
        const user = round(p.r() * 60, 2);
        const system = round(p.r() * 20, 2);
        lines.push(`cpu,cpu=${cpu},host=${host} usage_user=${user},usage_system=${system},usage_idle=${round(100 - user - system, 2)} ${ns}`);
      }
      const used = 4_000_000_000 + Math.floor(p.r() * 1e9);
      lines.push(`mem,host=${host} used=${used}i,available_percent=${round(100 - used / 1.7179869184e8, 3)} ${ns}`);
      if (i % 5 === 0) {
        for (const [path, device] of [['/', 'sda1'], ['/boot', 'sda2']] as const) {
          const u = 1_000_000_000 + i * 1000 + Math.floor(p.r() * 1000);
          lines.push(`disk,device=${device},host=${host},path=${path} used=${u}i,used_percent=${round(u / 1e9, 4)} ${ns}`);
        }
      }
      for (const ifc of SHAPES.net!.tags.interface!) {
        const n = host === 'b' && ifc === 'eth0' && i >= 180 ? i - 180 : i;
        lines.push(`net,host=${host},interface=${ifc} bytes_recv=${n * 150_000 + Math.floor(p.r() * 1000)}i,bytes_sent=${n * 90_000}i,err_in=${Math.floor(n / 50)}i ${ns}`);
      }
      lines.push(`system,host=${host} load1=${round(p.r() * 4, 2)},n_cpus=2i,uptime_format="${Math.floor(i / 60)} hours" ${ns}`);
    }
  }
  return lines.join('\n') + '\n';
}

/** Grafana's interval choices ($__interval rounded to these). */
const INTERVALS_MS = [200, 1000, 10_000, 15_000, 30_000, 60_000, 300_000, 600_000, 1_800_000, 3_600_000];
const unit = (ms: number): string => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : ms % 60_000 === 0 ? `${ms / 60_000}m` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

/** Grafana's $timeFilter with absolute bounds; the window and the matching GROUP BY interval. */
function window(p: Picker): { filter: string; interval: string; spanMs: number } {
  const lo = (SHARD_BOUNDARY_SEC - SPAN_SEC - 600) * 1000;
  const spanMs = p.pick([120_000, 900_000, 3_600_000, 7_200_000, 15_000_000]);
  const start = lo + Math.floor(p.r() * (2 * SPAN_SEC * 1000 + 1200_000 - spanMs)) + p.pick([0, 0, 123]);
  // about 20 to 1000 windows, as Grafana's maxDataPoints gives
  const fits = INTERVALS_MS.filter((ms) => spanMs / ms >= 4 && spanMs / ms <= 1000);
  return { filter: `time >= ${start}ms and time <= ${start + spanMs}ms`, interval: unit(p.pick(fits)), spanMs };
}

/** A tag value inside a regex literal, escaped as Grafana escapes template variables (`\/`). */
const re = (v: string): string => v.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

function tagFilter(p: Picker, m: string): string {
  const tags = SHAPES[m]!.tags;
  const k = p.pick(Object.keys(tags));
  const vs = tags[k]!.map(re);
  const v = p.pick(vs);
  return p.pick([
    '',
    '',
    `("${k}" =~ /^(${vs.slice(0, 2).join('|')})$/) AND `,
    `("${k}" =~ /^${v}$/) AND `,
    `("${k}" = '${tags[k]![vs.indexOf(v)]}') AND `,
    `("${k}" !~ /^${v}$/) AND `,
    `("${k}" <> '${tags[k]![vs.indexOf(v)]}') AND `,
    `("${k}" =~ /^(${v}|nosuch)$/ AND "host" =~ /^(a|c)$/) AND `,
    adHocFilter(p),
    `("${k}" = '${tags[k]![vs.indexOf(v)]}' OR "${p.pick(SHAPES[m]!.numeric)}" > ${p.pick([0, 10, 1000])}) AND `,
  ]);
}

/** A dashboard-wide ad-hoc filter: Grafana adds it to every panel, whichever tags the measurement has. */
function adHocFilter(p: Picker): string {
  const shape = SHAPES[p.pick(Object.keys(SHAPES))]!;
  const k = p.pick(Object.keys(shape.tags));
  const v = p.pick(shape.tags[k]!);
  const literal = p.chance(0.5);
  return `("${k}" ${p.pick(literal ? ['=', '!='] : ['=~', '!~'])} ${literal ? `'${v}'` : `/^${re(v)}$/`}) AND `;
}

function from(p: Picker, db: string, m: string): string {
  return p.pick([`"${m}"`, `"autogen"."${m}"`, `"${db}"."autogen"."${m}"`]);
}

function aggregateCall(p: Picker, m: string): string {
  const shape = SHAPES[m]!;
  const f = p.pick(shape.numeric);
  const k = p.r();
  if (shape.counters && k < 0.35) {
    const c = p.pick(shape.counters);
    return p.pick([
      `non_negative_derivative(mean("${c}"), 1s) * 8`,
      `non_negative_derivative(last("${c}"), 10s)`,
      `derivative(mean("${c}"), 1s)`,
      `difference(last("${c}"))`,
      `non_negative_difference(max("${c}"))`,
    ]);
  }
  if (k < 0.45) return `percentile("${f}", ${p.pick([50, 90, 95, 99])})`;
  if (k < 0.55) return `${p.pick(['mean', 'max', 'last'])}("${f}") ${p.pick(['* 8', '/ 1024 / 1024', '* 100', '- 1'])}`;
  if (k < 0.58) return `moving_average(${p.pick(['mean', 'sum'])}("${f}"), 3)`;
  if (k < 0.62) return `cumulative_sum(${p.pick(['mean', 'sum'])}("${f}"))`;
  return `${p.pick(['mean', 'mean', 'mean', 'max', 'min', 'sum', 'count', 'last', 'first', 'median', 'spread', 'stddev'])}("${f}")`;
}

function field(p: Picker, m: string): string {
  const call = aggregateCall(p, m);
  return p.chance(0.35) ? `${call} AS "${p.pick(['value', 'x', 'in', 'mean_v'])}"` : call;
}

/** The query editor's GROUP BY time statement. */
function editorSelect(p: Picker, db: string): string {
  const m = p.pick(Object.keys(SHAPES));
  const w = window(p);
  const fields = p.chance(0.25) ? `${field(p, m)}, ${field(p, m)}` : field(p, m);
  const tags = Object.keys(SHAPES[m]!.tags);
  const by = p.pick(['', '', `, "host"`, `, ${tags.map((t) => `"${t}"`).join(', ')}`, ', *']);
  let q = `SELECT ${fields} FROM ${from(p, db, m)} WHERE ${tagFilter(p, m)}${w.filter} GROUP BY time(${w.interval})${by} fill(${p.pick(['null', 'null', 'none', '0', 'previous', 'linear'])})`;
  if (p.chance(0.15)) q += ' ORDER BY time DESC';
  if (p.chance(0.15)) q += ` LIMIT ${p.pick([1, 5, 20])}`;
  if (by && p.chance(0.15)) q += ` SLIMIT ${p.pick([1, 2])}${p.chance(0.3) ? ' SOFFSET 1' : ''}`;
  if (p.chance(0.15)) q += ` tz('${p.pick(['Europe/Paris', 'America/New_York', 'Asia/Kolkata'])}')`;
  return q;
}

/** Raw mode, table panels and single stats. */
function otherSelect(p: Picker, db: string): string {
  const m = p.pick(Object.keys(SHAPES));
  const shape = SHAPES[m]!;
  const w = window(p);
  const tags = Object.keys(shape.tags);
  return p.pick([
    () => `SELECT "${p.pick(shape.numeric)}"${p.chance(0.5) ? `, "${p.pick(tags)}"` : ''} FROM ${from(p, db, m)} WHERE ${tagFilter(p, m)}${w.filter}${p.chance(0.5) ? ' ORDER BY time DESC' : ''} LIMIT ${p.pick([3, 10, 50])}`,
    () => `SELECT last("${p.pick(shape.numeric)}") FROM ${from(p, db, m)} WHERE ${w.filter} GROUP BY ${p.pick(tags.map((t) => `"${t}"`))}`,
    () => `SELECT last("uptime_format") AS "up", last("n_cpus") FROM "system" WHERE ${w.filter} GROUP BY "host"`,
    () => `SELECT ${p.pick(['mean', 'max', 'count'])}("${p.pick(shape.numeric)}") FROM ${from(p, db, m)} WHERE ${tagFilter(p, m)}${w.filter}`,
    () => `SELECT mean("${p.pick(shape.numeric)}") FROM ${from(p, db, m)} WHERE ${w.filter} GROUP BY time(${w.interval}), * fill(null)`,
    // Chronograf's host list: a derived column averaged per host
    () => `SELECT mean("cpu") AS "cpu" FROM (SELECT 100 - "usage_idle" AS "cpu" FROM "${db}"."autogen"."cpu" WHERE "cpu" = 'cpu-total' AND ${w.filter}) WHERE ${w.filter} GROUP BY "host"${p.chance(0.5) ? `, time(${w.interval}) fill(none)` : ''}`,
  ])();
}

/** Template-variable, ad-hoc-filter and Chronograf explorer queries. */
function showQuery(p: Picker, db: string): string {
  const m = p.pick(Object.keys(SHAPES));
  const tags = Object.keys(SHAPES[m]!.tags);
  const on = p.chance(0.3) ? ` ON "${db}"` : '';
  const t = (SHARD_BOUNDARY_SEC + p.pick([-SPAN_SEC - 3600, -3600, 0, 3600, SPAN_SEC + 3600])) * 1000;
  const timeCond = p.pick(['', '', ` time > ${t}ms`, ` time > ${t}ms AND time < ${t + 1_800_000}ms`]);
  const where = (tagPart: string): string => (tagPart || timeCond ? ` WHERE ${[tagPart, timeCond.trim()].filter(Boolean).join(' AND ')}` : '');
  const tagPart = p.pick(['', '', `"host" =~ /^(a|b)$/`, `"host" = 'c'`, `"${p.pick(tags)}" =~ /o/`]);
  return p.pick([
    () => `SHOW TAG VALUES${on}${p.chance(0.7) ? ` FROM "${m}"` : ''} WITH KEY ${p.pick([`= "${p.pick(tags)}"`, `IN (${tags.map((x) => `"${x}"`).join(',')})`, '=~ /a/'])}${where(tagPart)}${p.chance(0.2) ? ' LIMIT 2' : ''}`,
    () => `SHOW TAG KEYS${on}${p.chance(0.6) ? ` FROM "${m}"` : ''}${where(tagPart)}`,
    () => `SHOW MEASUREMENTS${on}${p.pick(['', ' WITH MEASUREMENT =~ /cp/', ' WITH MEASUREMENT =~ /(?i)M/', " WHERE \"host\" = 'c'"])} LIMIT ${p.pick([1, 100])}`,
    () => `SHOW FIELD KEYS${on}${p.chance(0.7) ? ` FROM "${m}"` : ''}`,
    () => `SHOW SERIES${on} FROM "${m}"${where(tagPart)}${p.chance(0.5) ? ` LIMIT ${p.pick([1, 3])}` : ''}`,
    () => `SHOW SERIES ${p.pick(['', 'EXACT '])}CARDINALITY${on} FROM "${m}"${tagPart ? ` WHERE ${tagPart}` : ''}`,
    () => `SHOW RETENTION POLICIES ON "${db}"`,
    () => `SHOW TAG VALUES${on} FROM /win_system|system|${m}/ WITH KEY = "host"${where(tagPart)}`,
  ])();
}

export interface DashboardQuery {
  readonly q: string;
  readonly method?: 'POST';
  readonly params?: Record<string, string>;
}

/** One request as a dashboard sends it: mostly `epoch=ms` on GET, some POSTs, some batches. */
export function randomDashboardQuery(p: Picker, db: string): DashboardQuery {
  const one = (): string => {
    const k = p.r();
    return k < 0.5 ? editorSelect(p, db) : k < 0.7 ? otherSelect(p, db) : showQuery(p, db);
  };
  const q = p.chance(0.2) ? Array.from({ length: p.pick([2, 3]) }, one).join(';') : one();
  const epoch = p.pick(['ms', 'ms', 'ms', '', 's']);
  return { q, ...(p.chance(0.3) ? { method: 'POST' as const } : {}), ...(epoch ? { params: { epoch } } : {}) };
}
