/**
 * Data definition: databases, retention policies, continuous queries, materialized views,
 * subscriptions, and the deleting statements (DELETE, DROP SERIES / MEASUREMENT / SHARD).
 * Each export parses what follows its dispatch words (e.g. `createDatabase` after CREATE DATABASE).
 */
import P from 'parsimmon';
import type { Parser } from 'parsimmon';
import { formatDuration, parseDuration } from '../ast/duration.js';
import type { Expr, SelectStatement, Source } from '../ast/nodes.js';
import type { Statement } from '../ast/statements.js';
import { ParseError } from '../errors.js';
import type { Grammar } from './language.js';
import {
  clause, durationTok, expect, fatal, failWith, ident, integerTok, keyword, opt, peek, stringLit, sym, tight, token,
} from './lexeme.js';
import { decimalValue, posAt } from './scanner.js';
import type { Token } from './scanner.js';
import { measurementSources, where } from './select.js';

type Lang = P.TypedLanguage<Grammar>;

const name = expect(ident, 'identifier');
const on = expect(keyword('on'), 'ON');

/** A duration value that must parse (1.x ParseDuration errors carry the token position). */
function durationValue(t: Token): Parser<bigint> {
  const d = parseDuration(t.lit);
  return d.ok ? P.succeed(d.ns) : failWith(({ input }) => ParseError.at(d.error, posAt(input, t.start)));
}

/** DURATION argument: a duration literal or INF (= 0). */
export const durationArg: Parser<bigint> = expect(
  P.alt(keyword('inf').map(() => 0n), durationTok.chain(durationValue)),
  'duration',
);

/** A strict duration (RESAMPLE EVERY/FOR, SHARD DURATION after the INF check). */
const strictDuration: Parser<bigint> = expect(durationTok, 'duration').chain(durationValue);

/** 1.x ParseInt(min, max): an INTEGER token within range. */
export function intArg(min: number, max: number): Parser<number> {
  return expect(integerTok, 'integer').chain((t) => {
    const v = decimalValue(t.lit);
    if (v > (1n << 63n) - 1n || v < -(1n << 63n)) {
      return failWith(({ input }) => ParseError.at(`strconv.Atoi: parsing "${t.lit}": value out of range`, posAt(input, t.start)));
    }
    if (v < BigInt(min) || v > BigInt(max)) {
      return failWith(({ input }) => ParseError.at(`invalid value ${v}: must be ${min} <= n <= ${max}`, posAt(input, t.start)));
    }
    return P.succeed(Number(v));
  });
}

const MAX_INT32 = 2147483647;

/** `SHARD DURATION d` (INF refused). */
const shardDuration: Parser<bigint> = expect(keyword('duration'), 'DURATION').then(
  P.alt(
    token((t) => t.type === 'KEYWORD' && t.lit === 'inf', 'INF').chain((t) =>
      failWith(({ input }) => ParseError.at('invalid duration INF for shard duration', posAt(input, t.start))),
    ),
    strictDuration,
  ),
);

/** After `WITH`, at least one retention policy option must follow. */
const rpOptionAhead = P.lookahead(P.alt(keyword('duration'), keyword('name'), keyword('replication'), keyword('shard')))
  .or(fatal('DURATION', 'NAME', 'REPLICATION', 'SHARD'));

export const createDatabase: Parser<Statement> = P.seqMap(
  name,
  clause(
    keyword('with').skip(rpOptionAhead),
    P.seqMap(
      clause(keyword('duration'), durationArg),
      clause(keyword('replication'), intArg(1, MAX_INT32)),
      clause(keyword('shard'), expect(keyword('duration'), 'DURATION').then(durationArg)),
      clause(keyword('name'), name),
      (duration, replication, shard, rp) => ({ duration, replication, shardDuration: shard, name: rp ?? '' }),
    ),
  ),
  (dbName, retentionPolicy) => ({ kind: 'CreateDatabase', name: dbName, retentionPolicy }),
);

export const createRetentionPolicy: Parser<Statement> = P.seqMap(
  P.seq(name, on.then(name), expect(keyword('duration'), 'DURATION').then(durationArg)),
  P.seq(expect(keyword('replication'), 'REPLICATION').then(intArg(1, MAX_INT32)), clause(keyword('shard'), shardDuration), opt(keyword('default'))),
  ([rpName, database, duration], [replication, shard, dflt]) => ({
    kind: 'CreateRetentionPolicy', name: rpName, database, duration, replication, shardDuration: shard ?? 0n, isDefault: dflt !== null,
  }),
);

type RpOption =
  | { readonly k: 'DURATION'; readonly v: bigint }
  | { readonly k: 'REPLICATION'; readonly v: number }
  | { readonly k: 'SHARD'; readonly v: bigint }
  | { readonly k: 'DEFAULT' };

const rpOption: Parser<{ at: Token; opt: RpOption }> = P.seqMap(
  P((input, i) => P.makeSuccess(i, peek(input, i))),
  P.alt<RpOption>(
    keyword('duration').then(durationArg).map((v) => ({ k: 'DURATION', v })),
    keyword('replication').then(intArg(1, MAX_INT32)).map((v) => ({ k: 'REPLICATION', v })),
    keyword('shard').then(shardDuration).map((v) => ({ k: 'SHARD', v })),
    keyword('default').map(() => ({ k: 'DEFAULT' })),
  ),
  (at, o) => ({ at, opt: o }),
);

const rpOptions = rpOption.many().chain((opts) => {
  if (opts.length === 0) return fatal('DURATION', 'REPLICATION', 'SHARD', 'DEFAULT');
  const seen = new Set<string>();
  for (const { at, opt: o } of opts) {
    if (seen.has(o.k)) return failWith(({ input }) => ParseError.at(`found duplicate ${o.k} option`, posAt(input, at.start)));
    seen.add(o.k);
  }
  return P.succeed(opts.map((o) => o.opt));
});

export const alterRetentionPolicy: Parser<Statement> = P.seqMap(
  expect(P.alt(keyword('default').map(() => 'default'), ident), 'identifier'),
  on.then(name),
  rpOptions,
  (rpName, database, opts): Statement => {
    let duration: bigint | null = null;
    let replication: number | null = null;
    let shard: bigint | null = null;
    let isDefault = false;
    for (const o of opts) {
      if (o.k === 'DURATION') duration = o.v;
      else if (o.k === 'REPLICATION') replication = o.v;
      else if (o.k === 'SHARD') shard = o.v;
      else isDefault = true;
    }
    return { kind: 'AlterRetentionPolicy', name: rpName, database, duration, replication, shardDuration: shard, isDefault };
  },
);

export const dropRetentionPolicy: Parser<Statement> = P.seqMap(name, on.then(name), (rpName, database) => ({
  kind: 'DropRetentionPolicy', name: rpName, database,
}));

/** GROUP BY time(...) interval of a SELECT in ns; 0 when it has none. */
export function groupByInterval(s: SelectStatement): bigint {
  for (const d of s.dimensions) {
    if (d.kind === 'Call' && d.name === 'time') {
      const a = d.args[0];
      return a?.kind === 'Duration' ? a.ns : 0n;
    }
  }
  return 0n;
}

function hasCall(e: Expr): boolean {
  switch (e.kind) {
    case 'Call': return true;
    case 'Binary': return hasCall(e.lhs) || hasCall(e.rhs);
    case 'Unary': return hasCall(e.expr);
    default: return false;
  }
}

const resample = keyword('resample').then(
  P.seqMap(clause(keyword('every'), strictDuration), clause(keyword('for'), strictDuration), (every, forD) => ({ every, forD })),
).chain((r) => (r.every === null && r.forD === null ? fatal('EVERY', 'FOR') : P.succeed(r)));

export function createContinuousQuery(r: Lang): Parser<Statement> {
  const body = expect(keyword('begin'), 'BEGIN').then(expect(keyword('select'), 'SELECT')).then(r.selectInto);
  const aggregatedNeedsInterval = body.chain((source) =>
    source.fields.some((f) => hasCall(f.expr)) && groupByInterval(source) === 0n ? fatal('GROUP BY time(...)') : P.succeed(source),
  );
  return P.seqMap(
    P.seq(name, on.then(name), opt(resample)),
    aggregatedNeedsInterval.skip(expect(keyword('end'), 'END')),
    ([cqName, database, rs], source): Statement => {
      const every = rs?.every ?? null;
      const forD = rs?.forD ?? null;
      if (forD !== null && forD !== 0n) {
        let interval = groupByInterval(source);
        if (every !== null && every > interval) interval = every;
        if (interval > forD) {
          throw ParseError.plain(
            `FOR duration must be >= GROUP BY time duration: must be a minimum of ${formatDuration(interval)}, got ${formatDuration(forD)}`,
          );
        }
      }
      return { kind: 'CreateContinuousQuery', name: cqName, database, resampleEvery: every, resampleFor: forD, source };
    },
  );
}

export const dropContinuousQuery: Parser<Statement> = P.seqMap(name, on.then(name), (cqName, database) => ({
  kind: 'DropContinuousQuery', name: cqName, database,
}));

/** `VIEW name ON db AS SELECT ... INTO ... [WITH BACKFILL]` (after CREATE MATERIALIZED). */
export function createMaterializedView(r: Lang): Parser<Statement> {
  return P.seqMap(
    expect(keyword('view'), 'VIEW').then(name),
    on.then(name),
    expect(keyword('as'), 'AS').then(expect(keyword('select'), 'SELECT')).then(r.selectInto),
    opt(keyword('with').then(expect(keyword('backfill'), 'BACKFILL'))),
    (mvName, database, source, backfill) => ({ kind: 'CreateMaterializedView', name: mvName, database, source, backfill: backfill !== null }),
  );
}

export const dropMaterializedView: Parser<Statement> = P.seqMap(expect(keyword('view'), 'VIEW').then(name), on.then(name), (mvName, database) => ({
  kind: 'DropMaterializedView', name: mvName, database,
}));

const dbDotRp = P.seq(on.then(name), expect(tight('.'), '.').then(name));

export const createSubscription: Parser<Statement> = P.seqMap(
  name,
  dbDotRp,
  expect(keyword('destinations'), 'DESTINATIONS').then(expect(P.alt(keyword('all'), keyword('any')), 'ALL', 'ANY')),
  P.sepBy1(expect(stringLit, 'string'), sym(',')),
  (subName, [database, retentionPolicy], mode, destinations) => ({
    kind: 'CreateSubscription', name: subName, database, retentionPolicy, mode: mode === 'ALL' ? 'ALL' : 'ANY', destinations,
  }),
);

export const dropSubscription: Parser<Statement> = P.seqMap(name, dbDotRp, (subName, [database, retentionPolicy]) => ({
  kind: 'DropSubscription', name: subName, database, retentionPolicy,
}));

export const dropDatabase: Parser<Statement> = name.map((n) => ({ kind: 'DropDatabase', name: n }));
export const dropMeasurement: Parser<Statement> = name.map((n) => ({ kind: 'DropMeasurement', name: n }));

/** ParseUInt64: an INTEGER within uint64. */
export const uint64Arg: Parser<bigint> = expect(integerTok, 'integer').chain((t) => {
  const v = decimalValue(t.lit);
  return v >= 0n && v < 1n << 64n
    ? P.succeed(v)
    : failWith(({ input }) => ParseError.at(`strconv.ParseUint: parsing "${t.lit}": ${v < 0n ? 'invalid syntax' : 'value out of range'}`, posAt(input, t.start)));
});

export const dropShard: Parser<Statement> = uint64Arg.map((id) => ({ kind: 'DropShard', id }));

/** DELETE / DROP SERIES: `[FROM sources] [WHERE cond]`, at least one; a database or policy in a source refused (1.x). */
function deleting(): Parser<{ sources: Source[]; condition: Expr | null }> {
  const from = keyword('from').then(measurementSources).chain((sources) => {
    let err: string | null = null;
    for (const s of sources) {
      if (s.kind !== 'Measurement') continue;
      if (s.database !== '') err = 'database not supported';
      if (s.retentionPolicy !== '') err = 'retention policy not supported';
    }
    return err === null ? P.succeed(sources) : failWith(() => ParseError.at(err, { line: 1, char: 1 }));
  });
  return P.seqMap(opt(from), where, (sources, condition) => ({ sources: sources ?? [], condition })).chain((d) =>
    d.sources.length === 0 && d.condition === null ? fatal('FROM', 'WHERE') : P.succeed(d),
  );
}

export const deleteStatement: Parser<Statement> = deleting().map((d) => ({ kind: 'Delete', ...d }));
export const dropSeries: Parser<Statement> = deleting().map((d) => ({ kind: 'DropSeries', ...d }));
