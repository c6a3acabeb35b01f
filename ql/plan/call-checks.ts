/**
 * The argument checks 1.x makes while compiling a SELECT's calls (influxql 1.6
 * query/compile.go), with its texts: argument counts, literal kinds (`%T` prints Go's node
 * type), positive durations and windows, field arguments, and the GROUP BY interval rules of
 * transforms. The first failing call, in field order and outside in, gives the error.
 */
import { formatDuration } from '../ast/duration.js';
import type { Call, Expr } from '../ast/nodes.js';
import { printExpr } from '../ast/print.js';
import { QueryError } from '../errors.js';
import { TECHNICAL } from '../exec/technical.js';
import { isMath } from './functions.js';
import { goFixed3 } from '../ast/go-fixed.js';

/** Go's `%T` of an influxql node. */
function goType(e: Expr): string {
  switch (e.kind) {
    case 'VarRef':
      return '*influxql.VarRef';
    case 'Call':
      return '*influxql.Call';
    case 'Distinct':
      return '*influxql.Distinct';
    case 'Binary':
      return '*influxql.BinaryExpr';
    case 'Wildcard':
      return '*influxql.Wildcard';
    case 'Integer':
      return '*influxql.IntegerLiteral';
    case 'Unsigned':
      return '*influxql.UnsignedLiteral';
    case 'Number':
      return '*influxql.NumberLiteral';
    case 'String':
      return '*influxql.StringLiteral';
    case 'Boolean':
      return '*influxql.BooleanLiteral';
    case 'Duration':
      return '*influxql.DurationLiteral';
    case 'Regex':
      return '*influxql.RegexLiteral';
    default:
      return `*influxql.${e.kind}`;
  }
}

const fail = (message: string): never => {
  throw new QueryError(message);
};

function arity(name: string, got: number, exp: number): void {
  if (got !== exp) fail(`invalid number of arguments for ${name}, expected ${exp}, got ${got}`);
}

function arityRange(name: string, got: number, min: number, max: number): void {
  if (got < min || got > max) fail(`invalid number of arguments for ${name}, expected at least ${min} but no more than ${max}, got ${got}`);
}

/** compileSymbol: a field, a wildcard or a regex. */
function symbol(name: string, e: Expr | undefined): void {
  if (e && (e.kind === 'VarRef' || e.kind === 'Wildcard' || e.kind === 'Regex')) return;
  fail(`expected field argument in ${name}()`);
}

function positiveDuration(e: Expr, otherwise: string): void {
  if (e.kind !== 'Duration') fail(otherwise);
  else if (e.ns <= 0n) fail(`duration argument must be positive, got ${formatDuration(e.ns)}`);
}

/** Transforms take a field (no GROUP BY time) or an aggregate (with one). */
function transformInput(name: string, e: Expr | undefined, groupsByTime: boolean): void {
  if (e?.kind === 'Call') {
    if (!groupsByTime) fail(`${name} aggregate requires a GROUP BY interval`);
    return;
  }
  if (groupsByTime) fail(`aggregate function required inside the call to ${name}`);
  symbol(name, e);
}

/** holt_winters(aggregate, N, S): N > 0 points to forecast, season S >= 0, GROUP BY time. */
function holtWinters(name: string, args: readonly Expr[], groupsByTime: boolean): void {
  arity(name, args.length, 3);
  const n = args[1]!;
  if (n.kind !== 'Integer') fail(`expected integer argument as second arg in ${name}`);
  else if (n.value <= 0n) fail(`second arg to ${name} must be greater than 0, got ${n.value}`);
  const s = args[2]!;
  if (s.kind !== 'Integer') fail(`expected integer argument as third arg in ${name}`);
  else if (s.value < 0n) fail(`third arg to ${name} cannot be negative, got ${s.value}`);
  if (args[0]?.kind !== 'Call') fail(`must use aggregate function with ${name}`);
  if (!groupsByTime) fail(`${name} aggregate requires a GROUP BY interval`);
}

function distinctArgs(args: readonly Expr[]): void {
  if (args.length === 0) fail('distinct function requires at least one argument');
  if (args.length !== 1) fail('distinct function can only have one argument');
  if (args[0]?.kind !== 'VarRef') fail('expected field argument in distinct()');
}

function topBottom(call: Call, name: string): void {
  const args = call.args;
  if (args.length < 2) fail(`invalid number of arguments for ${name}, expected at least 2, got ${args.length}`);
  const last = args[args.length - 1]!;
  // 1.x prints a number literal with three decimals here (NumberLiteral.String()).
  if (last.kind !== 'Integer') fail(`expected integer as last argument in ${name}(), found ${last.kind === 'Number' ? goFixed3(last.value) : printExpr(last)}`);
  else if (last.value <= 0n) fail(`limit (${last.value}) in ${name} function must be at least 1`);
  if (args[0]?.kind !== 'VarRef') fail(`expected first argument to be a field in ${name}(), found ${printExpr(args[0]!)}`);
  for (const a of args.slice(1, -1)) if (a.kind !== 'VarRef') fail(`only fields or tags are allowed in ${name}(), found ${printExpr(a)}`);
}

const TWO_ARG_MATH: ReadonlySet<string> = new Set(['atan2', 'pow', 'log']);

/** exponential_moving_average(x, period[, hold[, warmup]]) and the other technical functions. */
function technical(name: string, args: readonly Expr[], groupsByTime: boolean): void {
  const kaufman = name.startsWith('kaufmans_');
  arityRange(name, args.length, 2, kaufman ? 3 : 4);
  const period = args[1]!;
  if (period.kind !== 'Integer') fail(`${name} period must be an integer`);
  else if (period.value < 1n) fail(`${name} period must be greater than or equal to 1`);
  const hold = args[2];
  if (hold) {
    if (hold.kind !== 'Integer') fail(`${name} hold period must be an integer`);
    else if (name === 'triple_exponential_derivative' && hold.value < 1n && hold.value !== -1n) fail(`${name} hold period must be greater than or equal to 1`);
    else if (hold.value < 0n && hold.value !== -1n) fail(`${name} hold period must be greater than or equal to 0`);
  }
  const warmup = args[3];
  if (warmup) {
    const cmo = name === 'chande_momentum_oscillator';
    const allowed = cmo ? ['none', 'exponential', 'simple'] : ['exponential', 'simple'];
    if (warmup.kind !== 'String') fail(`${name} warmup type must be a string`);
    else if (!allowed.includes(warmup.value)) fail(`${name} warmup type must be one of: ${allowed.map((w) => `'${w}'`).join(' ')}`);
  }
  transformInput(name, args[0], groupsByTime);
}

export function checkCall(call: Call, groupsByTime: boolean): void {
  const name = call.name.toLowerCase();
  const args = call.args;
  if (isMath(name)) return arity(name, args.length, TWO_ARG_MATH.has(name) ? 2 : 1);
  if (TECHNICAL.has(name)) return technical(name, args, groupsByTime);
  switch (name) {
    case 'distinct':
      return distinctArgs(args);
    case 'count': {
      arity(name, args.length, 1);
      const a = args[0]!;
      if (a.kind === 'Call' && a.name.toLowerCase() === 'distinct') return distinctArgs(a.args);
      if (a.kind === 'Distinct') return;
      return symbol(name, a);
    }
    case 'sum':
    case 'mean':
    case 'median':
    case 'mode':
    case 'stddev':
    case 'spread':
    case 'min':
    case 'max':
    case 'first':
    case 'last':
      arity(name, args.length, 1);
      return symbol(name, args[0]);
    case 'top':
    case 'bottom':
      return topBottom(call, name);
    case 'sample': {
      arity(name, args.length, 2);
      const n = args[1]!;
      if (n.kind !== 'Integer') fail('expected integer argument in sample()');
      else if (n.value <= 0n) fail(`sample window must be greater than 1, got ${n.value}`);
      return symbol(name, args[0]);
    }
    case 'percentile':
      arity(name, args.length, 2);
      if (args[1]!.kind !== 'Integer' && args[1]!.kind !== 'Number') fail('expected float argument in percentile()');
      return symbol(name, args[0]);
    case 'derivative':
    case 'non_negative_derivative':
    case 'elapsed':
      arityRange(name, args.length, 1, 2);
      if (args[1]) positiveDuration(args[1], `second argument to ${name} must be a duration, got ${goType(args[1])}`);
      return transformInput(name, args[0], groupsByTime);
    case 'difference':
    case 'non_negative_difference':
    case 'cumulative_sum':
      arity(name, args.length, 1);
      return transformInput(name, args[0], groupsByTime);
    case 'moving_average': {
      arity(name, args.length, 2);
      const n = args[1]!;
      if (n.kind !== 'Integer') fail(`second argument for moving_average must be an integer, got ${goType(n)}`);
      else if (n.value <= 1n) fail(`moving_average window must be greater than 1, got ${n.value}`);
      return transformInput(name, args[0], groupsByTime);
    }
    case 'holt_winters':
    case 'holt_winters_with_fit':
      return holtWinters(name, args, groupsByTime);
    case 'integral':
      arityRange(name, args.length, 1, 2);
      if (args[1]) positiveDuration(args[1], 'second argument must be a duration');
      return symbol(name, args[0]);
    default:
      return fail(`undefined function ${call.name}()`);
  }
}
