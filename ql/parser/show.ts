/**
 * SHOW statements, dispatched like influxql's parse tree (the order of the entries in `show` is the order of
 * the "expected ..." list). SHOW MATERIALIZED VIEWS is Strata's; `SHOW GRANTS` without FOR is too.
 */
import P from 'parsimmon';
import type { Parser } from 'parsimmon';
import * as N from '../ast/nodes.js';
import type { ShowCardinalityStatement, Statement, TagKeyFilter } from '../ast/statements.js';
import { clause, dispatch, expect, fatal, ident, keyword, opt, regexLit, stringLit, sym } from './lexeme.js';
import { groupBy, intClause, measurementSource, measurementSources, orderBy, where } from './select.js';

/** `ON db`, '' when absent. */
export const onDatabase: Parser<string> = clause(keyword('on'), expect(ident, 'identifier')).map((d) => d ?? '');
const fromSources = clause(keyword('from'), measurementSources).map((s) => s ?? []);
const forModule = clause(keyword('for'), expect(stringLit, 'string')).map((m) => m ?? '');

/** `WITH KEY = k | != k | =~ /re/ | !~ /re/ | IN (k, ...)` (required). */
const tagKeyFilter: Parser<TagKeyFilter> = expect(keyword('with'), 'WITH')
  .then(expect(keyword('key'), 'KEY'))
  .then(
    P.alt<TagKeyFilter>(
      keyword('in')
        .then(expect(sym('('), '('))
        .then(P.sepBy1(expect(ident, 'identifier'), sym(',')))
        .skip(expect(sym(')'), ')'))
        .map((keys) => ({ op: 'IN', keys })),
      P.seqMap(P.alt(sym('='), sym('!=')), expect(ident, 'identifier'), (op, key) => ({ op: op === '=' ? '=' : '!=', key })),
      P.seqMap(P.alt(sym('=~'), sym('!~')), expect(regexLit, 'regex'), (op, re) => ({ op: op === '=~' ? '=~' : '!~', regex: N.regex(re) })),
      fatal('IN', '=', '=~'),
    ),
  );

function cardinality(
  of: ShowCardinalityStatement['of'],
  exact: boolean,
): Parser<ShowCardinalityStatement> {
  const tagKey = of === 'tagValues' ? tagKeyFilter : P.succeed(null);
  return P.seqMap(
    P.seq(onDatabase, fromSources, tagKey),
    P.seq(where, groupBy, intClause('limit'), intClause('offset')),
    ([database, sources, tk], [condition, dimensions, limit, offset]): ShowCardinalityStatement => ({
      kind: 'ShowCardinality', of, exact, database, sources, condition, tagKey: tk, dimensions, limit, offset,
    }),
  );
}

/** `[EXACT] CARDINALITY` for TAG KEY / FIELD KEY (1.x lists what is still possible). */
function keyCardinality(of: 'tagKey' | 'fieldKey'): Parser<Statement> {
  return P.alt(
    keyword('exact').then(expect(keyword('cardinality'), 'CARDINALITY')).then(cardinality(of, true)),
    keyword('cardinality').then(cardinality(of, false)),
    fatal('EXACT', 'CARDINALITY'),
  );
}

const paging = P.seq(orderBy, intClause('limit'), intClause('offset'));

function showSeries(): Parser<Statement> {
  return opt(keyword('exact')).chain((exact) =>
    P.alt<Statement>(
      keyword('cardinality').then(cardinality('series', exact !== null)),
      P.seqMap(onDatabase, fromSources, where, paging, (database, sources, condition, [sortFields, limit, offset]) => ({
        kind: 'ShowSeries', database, sources, condition, sortFields, limit, offset,
      })),
    ),
  );
}

function showMeasurements(): Parser<Statement> {
  const withMeasurement = clause(
    keyword('with').then(expect(keyword('measurement'), 'MEASUREMENT')),
    expect(P.alt(sym('=~'), sym('=')), '=', '=~').then(measurementSource),
  );
  return P.seqMap(onDatabase, withMeasurement, where, paging, (database, source, condition, [sortFields, limit, offset]) => ({
    kind: 'ShowMeasurements', database, source, condition, sortFields, limit, offset,
  }));
}

function showTagKeys(): Parser<Statement> {
  return P.seqMap(
    P.seq(onDatabase, fromSources, where),
    P.seq(paging, intClause('slimit'), intClause('soffset')),
    ([database, sources, condition], [[sortFields, limit, offset], slimit, soffset]) => ({
      kind: 'ShowTagKeys', database, sources, condition, sortFields, limit, offset, slimit, soffset,
    }),
  );
}

function showTagValues(): Parser<Statement> {
  return P.alt<Statement>(
    keyword('exact').then(expect(keyword('cardinality'), 'CARDINALITY')).then(cardinality('tagValues', true)),
    keyword('cardinality').then(cardinality('tagValues', false)),
    P.seqMap(
      P.seq(onDatabase, fromSources, tagKeyFilter),
      P.seq(where, paging),
      ([database, sources, tagKey], [condition, [sortFields, limit, offset]]) => ({
        kind: 'ShowTagValues', database, sources, tagKey, condition, sortFields, limit, offset,
      }),
    ),
  );
}

const showFieldKeys: Parser<Statement> = P.seqMap(onDatabase, fromSources, paging, (database, sources, [sortFields, limit, offset]) => ({
  kind: 'ShowFieldKeys', database, sources, sortFields, limit, offset,
}));

const simple = <K extends Statement['kind']>(kind: K) => P.succeed({ kind });

/** The SHOW subtree (after the SHOW keyword). */
export const show: Parser<Statement> = dispatch<Statement>([
  ['continuous', expect(keyword('queries'), 'QUERIES').then(simple('ShowContinuousQueries'))],
  ['databases', simple('ShowDatabases')],
  ['diagnostics', forModule.map((module) => ({ kind: 'ShowDiagnostics', module }))],
  ['field', dispatch<Statement>([['key', keyCardinality('fieldKey')], ['keys', showFieldKeys]])],
  ['grants', clause(keyword('for'), expect(ident, 'identifier')).map((user) => ({ kind: 'ShowGrants', user: user ?? '' }))],
  ['measurement', P.alt(
      keyword('exact').then(expect(keyword('cardinality'), 'CARDINALITY')).then(cardinality('measurement', true)),
      keyword('cardinality').then(cardinality('measurement', false)),
      fatal('EXACT', 'CARDINALITY'),
    )],
  ['measurements', showMeasurements()],
  ['queries', simple('ShowQueries')],
  ['retention', expect(keyword('policies'), 'POLICIES').then(onDatabase).map((database) => ({ kind: 'ShowRetentionPolicies', database }))],
  ['series', showSeries()],
  ['shard', dispatch<Statement>([['groups', simple('ShowShardGroups')]])],
  ['shards', simple('ShowShards')],
  ['stats', forModule.map((module) => ({ kind: 'ShowStats', module }))],
  ['subscriptions', simple('ShowSubscriptions')],
  ['tag', dispatch<Statement>([['key', keyCardinality('tagKey')], ['keys', showTagKeys()], ['values', showTagValues()]])],
  ['users', simple('ShowUsers')],
  ['materialized', expect(keyword('views'), 'VIEWS').then(onDatabase).map((database) => ({ kind: 'ShowMaterializedViews', database })), 'hidden'],
]);

