/**
 * AST → canonical TimeseriesQL, in InfluxDB 1.x's String() style: upper-case keywords, identifiers
 * quoted only when needed, durations in their largest exact unit, minimal parentheses from the one
 * precedence table. parse(print(ast)) equals ast for every AST the parser can produce.
 * Differences from 1.x, chosen for exact round trips: floats keep full precision and a `.`
 * (`2.0`, not 1.x's `2.000`), and fill(<float>) keeps the `.`. printAs1x() prints 1.x's
 * three decimals instead, for texts shown to clients only (SHOW CONTINUOUS QUERIES).
 */
import { formatDuration } from './duration.js';
import { floatLiteral } from './format.js';
import { goFixed3 } from './go-fixed.js';
import { quoteIdent, quoteString } from './keywords.js';
import { PRECEDENCE } from './precedence.js';
import type { Expr, Field, FillOption, Measurement, SelectStatement, SortField, Source, Target } from './nodes.js';

export function printRegex(source: string): string {
  return '/' + source.replace(/\//g, '\\/') + '/';
}

/** True when the printed operand starts with a token NOT accepts without parentheses. */
function plainOperand(e: Expr): boolean {
  switch (e.kind) {
    case 'VarRef': case 'Call': case 'String': case 'Boolean': case 'Distinct': return true;
    case 'Integer': case 'Unsigned': case 'Duration': return (e.kind === 'Duration' ? e.ns : e.value) >= 0n;
    case 'Number': return e.value >= 0 && !Object.is(e.value, -0);
    default: return false;
  }
}

/** How a float literal prints: round-trip exact, or 1.x's NumberLiteral.String() inside printAs1x(). */
let numberText: (v: number) => string = floatLiteral;

/** Runs a printer with float literals as 1.x shows them (`1.500`); printing is synchronous. */
export function printAs1x<T>(print: () => T): T {
  const saved = numberText;
  numberText = goFixed3;
  try {
    return print();
  } finally {
    numberText = saved;
  }
}

export function printExpr(e: Expr): string {
  switch (e.kind) {
    case 'VarRef': return quoteIdent(e.name) + (e.type === null ? '' : '::' + e.type);
    case 'Wildcard': return '*' + (e.type === null ? '' : '::' + e.type);
    case 'Call': return (e.name === 'distinct' ? 'distinct' : quoteIdent(e.name)) + '(' + e.args.map(printExpr).join(', ') + ')';
    case 'Distinct': return 'DISTINCT ' + quoteIdent(e.name);
    case 'Integer': case 'Unsigned': return e.value.toString();
    case 'Number': return numberText(e.value);
    case 'String': return quoteString(e.value);
    case 'Boolean': return e.value ? 'true' : 'false';
    case 'Duration': return formatDuration(e.ns);
    case 'Regex': return printRegex(e.source);
    case 'Unary': {
      const inner = printExpr(e.expr);
      if (e.op === 'NOT') return plainOperand(e.expr) ? 'NOT ' + inner : 'NOT (' + inner + ')';
      const bare = e.expr.kind === 'VarRef' || (e.expr.kind === 'Call' && e.expr.name !== 'distinct');
      return bare ? '-' + inner : '-(' + inner + ')';
    }
    case 'Binary': {
      const p = PRECEDENCE[e.op];
      const lhs = e.lhs.kind === 'Binary' && PRECEDENCE[e.lhs.op] < p ? '(' + printExpr(e.lhs) + ')' : printExpr(e.lhs);
      const rhs = e.rhs.kind === 'Binary' && PRECEDENCE[e.rhs.op] <= p ? '(' + printExpr(e.rhs) + ')' : printExpr(e.rhs);
      return lhs + ' ' + e.op + ' ' + rhs;
    }
  }
}

export function printField(f: Field): string {
  return printExpr(f.expr) + (f.alias === null ? '' : ' AS ' + quoteIdent(f.alias));
}

/** `db.rp.`-style prefix of 1.x Measurement.String(). */
function qualifier(database: string, retentionPolicy: string): string {
  let out = database === '' ? '' : quoteIdent(database) + '.';
  out += retentionPolicy === '' ? '' : quoteIdent(retentionPolicy);
  return database !== '' || retentionPolicy !== '' ? out + '.' : out;
}

export function printMeasurement(m: Measurement): string {
  const q = qualifier(m.database, m.retentionPolicy);
  return q + (m.regex !== null ? printRegex(m.regex.source) : quoteIdent(m.name));
}

export function printSource(s: Source): string {
  return s.kind === 'SubQuery' ? '(' + printSelect(s.statement) + ')' : printMeasurement(s);
}

export function printSources(sources: readonly Source[]): string {
  return sources.map(printSource).join(', ');
}

function printTarget(t: Target): string {
  return 'INTO ' + qualifier(t.database, t.retentionPolicy) + (t.name === null ? ':MEASUREMENT' : quoteIdent(t.name));
}

function printFill(f: FillOption): string {
  if (f.mode === 'null') return '';
  if (f.mode === 'number') return ` fill(${typeof f.value === 'bigint' ? f.value.toString() : floatLiteral(f.value)})`;
  return ` fill(${f.mode})`;
}

export function printSortFields(fields: readonly SortField[]): string {
  if (fields.length === 0) return '';
  const list = fields.map((f) => (f.name === '' ? '' : quoteIdent(f.name) + ' ') + (f.ascending ? 'ASC' : 'DESC'));
  return ' ORDER BY ' + list.join(', ');
}

/** ` LIMIT n` etc.: omitted when 0. */
export function printInt(word: string, n: number): string {
  return n === 0 ? '' : ` ${word} ${n}`;
}

export function printWhere(cond: Expr | null): string {
  return cond === null ? '' : ' WHERE ' + printExpr(cond);
}

export function printGroupBy(dims: readonly Expr[]): string {
  return dims.length === 0 ? '' : ' GROUP BY ' + dims.map(printExpr).join(', ');
}

export function printSelect(s: SelectStatement): string {
  return (
    'SELECT ' + s.fields.map(printField).join(', ') +
    (s.target === null ? '' : ' ' + printTarget(s.target)) +
    ' FROM ' + printSources(s.sources) +
    printWhere(s.condition) +
    printGroupBy(s.dimensions) +
    printFill(s.fill) +
    printSortFields(s.sortFields) +
    printInt('LIMIT', s.limit) + printInt('OFFSET', s.offset) +
    printInt('SLIMIT', s.slimit) + printInt('SOFFSET', s.soffset) +
    (s.location === null ? '' : ' TZ(' + quoteString(s.location) + ')')
  );
}
