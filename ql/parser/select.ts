/**
 * SELECT ... INTO ... FROM ... WHERE ... GROUP BY ... fill() ORDER BY ... LIMIT/OFFSET/SLIMIT/SOFFSET TZ()
 * in 1.x clause order, plus the pieces SHOW/DELETE reuse (sources, WHERE, GROUP BY, ORDER BY, LIMIT).
 */
import P from 'parsimmon';
import type { Parser, TypedRule } from 'parsimmon';
import * as N from '../ast/nodes.js';
import type { Expr, FillOption, Measurement, SortField, Source, Target } from '../ast/nodes.js';
import { ParseError } from '../errors.js';
import { segmentedIdents } from './expr.js';
import type { Grammar } from './language.js';
import {
  clause, expect, fatal, here, ident, integerTok, keyword, opt, regexLit, sym, tight, token,
} from './lexeme.js';
import { posAt } from './scanner.js';

/** An expression where one is required (1.x: "expected identifier, string, number, bool"). */
export const required = (p: Parser<Expr>): Parser<Expr> => expect(p, 'identifier', 'string', 'number', 'bool');

const INT64_MAX = (1n << 63n) - 1n;

/** `LIMIT n`, `OFFSET n`, ...: 0 when absent; n must be a non-negative integer. */
export function intClause(word: string): Parser<number> {
  return clause(
    keyword(word),
    P.seqMap(P.index, expect(integerTok, 'integer'), (_, t) => t),
  ).chain((t) => {
    if (t === null) return P.succeed(0);
    const v = BigInt(t.lit);
    if (v < 0n) {
      return P<never>((input) => {
        throw ParseError.at(`${word.toUpperCase()} must be >= 0`, posAt(input, t.start));
      });
    }
    return P.succeed(Number(v > INT64_MAX ? INT64_MAX : v));
  });
}

const asc = P.alt(keyword('asc').map(() => true), keyword('desc').map(() => false));
const sortField: Parser<SortField> = P.seqMap(expect(ident, 'identifier'), asc.or(P.succeed(true)), (name, ascending) => ({ name, ascending }));
const onlyTime = (): Parser<never> =>
  P<never>(() => {
    throw ParseError.plain('only ORDER BY time supported at this time');
  });

/** `ORDER BY time [ASC|DESC]` or `ORDER BY ASC|DESC`; empty when absent. */
export const orderBy: Parser<SortField[]> = clause(
  keyword('order').then(expect(keyword('by'), 'BY')),
  P.seqMap(
    P.alt(
      asc.map((ascending): SortField => ({ name: '', ascending })),
      P.seqMap(ident, asc.or(P.succeed(true)), (name, ascending) => ({ name, ascending }))
        .chain((f) => (f.name === 'time' ? P.succeed(f) : onlyTime())),
      fatal('identifier', 'ASC', 'DESC'),
    ),
    sym(',').then(sortField).many(),
    (first, rest) => [first, ...rest],
  ).chain((fields) => (fields.length > 1 ? onlyTime() : P.succeed(fields))),
).map((f) => f ?? []);

/** `INTO [db.][rp.]m`, `INTO db.rp.:MEASUREMENT`. */
const target: Parser<Target> = keyword('into').then(
  P.seqMap(
    segmentedIdents,
    opt(tight('.').then(tight(':')).then(expect(keyword('measurement'), 'MEASUREMENT'))),
    (segs, backref): Target => {
      const parts = backref !== null && segs.length < 3 ? [...segs, null] : segs;
      const [a = '', b = '', c = null] = parts;
      if (parts.length === 1) return N.target(a);
      if (parts.length === 2) return N.target(b, a ?? '');
      return N.target(c, b ?? '', a ?? '');
    },
  ),
);

/** A measurement: `/re/`, `m`, `rp.m`, `db.rp.m`, `db..m`, `rp./re/`, `db.rp./re/`, `db../re/`. */
export const measurementSource: Parser<Measurement> = P.alt(
  regexLit.map((re) => N.measurement({ regex: N.regex(re) })),
  P.seqMap(segmentedIdents, opt(tight('.').then(regexLit)), (segs, re): Measurement => {
    const [a = '', b = '', c = ''] = segs;
    if (segs.length === 3) return N.measurement({ database: a, retentionPolicy: b, name: c });
    if (re !== null) {
      return segs.length === 1
        ? N.measurement({ retentionPolicy: a, regex: N.regex(re) })
        : N.measurement({ database: a, retentionPolicy: b, regex: N.regex(re) });
    }
    return segs.length === 1 ? N.measurement({ name: a }) : N.measurement({ retentionPolicy: a, name: b });
  }),
  fatal('identifier'),
);

/** Comma-separated measurements (SHOW/DELETE/DROP SERIES: no subqueries). */
export const measurementSources: Parser<Source[]> = P.sepBy1(measurementSource, sym(','));

/** `WHERE expr`, or null. */
export const where = (expr: Parser<Expr>): Parser<Expr | null> => clause(keyword('where'), required(expr));

/** `GROUP BY dim, ...` (regexes allowed), or empty. */
export const groupBy = (expr: Parser<Expr>): Parser<Expr[]> =>
  clause(
    keyword('group').then(expect(keyword('by'), 'BY')),
    P.sepBy1(regexLit.map((s): Expr => N.regex(s)).or(required(expr)), sym(',')),
  ).map((d) => d ?? []);

/** A call-looking clause introduced by an identifier (`fill(...)`, `tz(...)`), any case, quoted or not. */
const callClause = (name: string, expr: Parser<Expr>): Parser<Expr | null> =>
  opt(P.lookahead(token((t) => t.type === 'IDENT' && t.lit.toLowerCase() === name, name)).then(expr));

const FILL_WORDS: ReadonlySet<string> = new Set(['null', 'none', 'previous', 'linear']);

function fillOption(e: Expr | null): FillOption {
  if (e === null) return { mode: 'null' };
  if (e.kind !== 'Call') throw ParseError.plain('fill must be a function call');
  const [arg, ...more] = e.args;
  if (arg === undefined || more.length > 0) throw ParseError.plain('fill requires an argument, e.g.: 0, null, none, previous, linear');
  if (arg.kind === 'VarRef' && arg.type === null && FILL_WORDS.has(arg.name)) {
    return { mode: arg.name === 'null' ? 'null' : arg.name === 'none' ? 'none' : arg.name === 'previous' ? 'previous' : 'linear' };
  }
  if (arg.kind === 'Integer' || arg.kind === 'Number') return { mode: 'number', value: arg.value };
  throw ParseError.plain('expected number argument in fill()');
}

const zoneCache = new Map<string, boolean>();

/** Go's time.LoadLocation acceptance, approximated with the ICU zone database. */
export function isKnownZone(name: string): boolean {
  if (name === '' || name === 'UTC' || name === 'Local') return true;
  let ok = zoneCache.get(name);
  if (ok === undefined) {
    ok = /^[A-Z][A-Za-z0-9_+\-/]*$/.test(name);
    if (ok) {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: name });
      } catch {
        ok = false;
      }
    }
    if (zoneCache.size < 1000) zoneCache.set(name, ok);
  }
  return ok;
}

function location(e: Expr | null): string | null {
  if (e === null) return null;
  if (e.kind !== 'Call') throw ParseError.plain('tz must be a function call');
  const [arg, ...more] = e.args;
  if (arg === undefined || more.length > 0) throw ParseError.plain('tz requires exactly one argument');
  if (arg.kind !== 'String') throw ParseError.plain('expected string argument in tz()');
  if (!isKnownZone(arg.value)) throw ParseError.plain(`unable to find time zone ${arg.value}`);
  return arg.value;
}

const COMPARISON_OPS: ReadonlySet<string> = new Set(['=', '!=', '=~', '!~', '<', '<=', '>', '>=', 'AND', 'OR']);

/** First boolean operator in a SELECT field (pre-order), which 1.x rejects. */
function badFieldOperator(e: Expr): string | null {
  switch (e.kind) {
    case 'Binary':
      return COMPARISON_OPS.has(e.op) ? e.op : badFieldOperator(e.lhs) ?? badFieldOperator(e.rhs);
    case 'Call':
      for (const a of e.args) {
        const bad = badFieldOperator(a);
        if (bad !== null) return bad;
      }
      return null;
    case 'Unary':
      return badFieldOperator(e.expr);
    default:
      return null;
  }
}

const fieldP = (expr: Parser<Expr>): Parser<N.Field> =>
  P.seqMap(
    P.alt(
      regexLit.map((s): Expr => N.regex(s)),
      P.seqMap(here, required(expr), P.index, (start, e) => ({ start, e })).chain(({ start, e }) => {
        const bad = badFieldOperator(e);
        if (bad === null) return P.succeed(e);
        return P<never>((input) => {
          const pos = posAt(input, start);
          throw ParseError.plain(
            `invalid operator ${bad} in SELECT clause at line ${pos.line}, char ${pos.char}; operator is intended for WHERE clause`,
          );
        });
      }),
    ),
    clause(keyword('as'), expect(ident, 'identifier')),
    N.field,
  );

export type SelectRules = Pick<TypedRule<Grammar>, 'select' | 'selectInto' | 'source'>;

function selectBody(r: P.TypedLanguage<Grammar>, requireTarget: boolean): Parser<N.SelectStatement> {
  const into = requireTarget ? expect(target, 'INTO') : opt(target);
  const head = P.seq(
    P.sepBy1(fieldP(r.expr), sym(',')),
    into,
    expect(keyword('from'), 'FROM').then(P.sepBy1(r.source, sym(','))),
  );
  const middle = P.seq(
    where(r.expr),
    groupBy(r.expr),
    callClause('fill', r.expr).map(fillOption),
    orderBy,
  );
  const tail = P.seq(
    intClause('limit'), intClause('offset'), intClause('slimit'), intClause('soffset'),
    callClause('tz', r.expr).map(location),
  );
  return P.seqMap(head, middle, tail, ([fields, tgt, sources], [condition, dimensions, fill, sortFields], [limit, offset, slimit, soffset, loc]) =>
    N.select(fields, sources, { target: tgt, condition, dimensions, fill, sortFields, limit, offset, slimit, soffset, location: loc }),
  );
}

export const selectRules: SelectRules = {
  select: (r) => selectBody(r, false),
  selectInto: (r) => selectBody(r, true),
  source: (r) =>
    P.alt(
      sym('(').then(expect(keyword('select'), 'SELECT')).then(r.select).skip(expect(sym(')'), ')')).map(N.subQuery),
      measurementSource,
    ),
};
