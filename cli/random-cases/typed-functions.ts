/**
 * Every function that takes a field, over the shared dataset's string (`message`), boolean
 * (`ok`), integer (`code`) and float (`latency`) fields of `events`: transforms, math
 * functions, casts, selectors and technical-analysis functions, alone, nested over an
 * aggregate, beside other fields, in WHERE and in subqueries. 1.x accepts some per type and
 * refuses others with errors naming the Go iterator type; which error comes first when several
 * apply is part of the answer.
 */
import { timeRange, type Picker } from './pick.js';

const FIELDS = ['message', 'ok', 'code', 'latency'];
const TRANSFORMS = [
  'derivative', 'non_negative_derivative', 'difference', 'non_negative_difference', 'cumulative_sum', 'elapsed', 'moving_average',
  'holt_winters', 'holt_winters_with_fit', 'chande_momentum_oscillator', 'exponential_moving_average', 'double_exponential_moving_average',
  'triple_exponential_moving_average', 'relative_strength_index', 'triple_exponential_derivative', 'kaufmans_efficiency_ratio',
  'kaufmans_adaptive_moving_average',
];
const MATH = ['abs', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'exp', 'ln', 'log2', 'log10', 'sqrt', 'floor', 'ceil', 'round'];
const SELECTORS = ['first', 'last', 'min', 'max', 'top', 'bottom', 'sample', 'percentile', 'mode', 'distinct'];

function args(fn: string): string {
  if (fn === 'moving_average') return ', 2';
  if (fn === 'holt_winters' || fn === 'holt_winters_with_fit') return ', 2, 0';
  if (fn === 'elapsed') return ', 1s';
  if (fn.includes('exponential') || fn.includes('kaufmans') || fn.includes('chande') || fn.includes('relative_strength')) return ', 2';
  return '';
}

function selector(p: Picker, f: string): string {
  const fn = p.pick(SELECTORS);
  if (fn === 'top' || fn === 'bottom' || fn === 'sample') return `${fn}(${f}, 2)`;
  if (fn === 'percentile') return `percentile(${f}, 50)`;
  return `${fn}(${f})`;
}

export function randomTypedFunction(p: Picker): string {
  const f = p.pick(FIELDS);
  const g = p.pick(FIELDS);
  const range = timeRange(p, 0, 24);
  const k = p.r();
  if (k < 0.25) {
    const fn = p.pick(TRANSFORMS);
    return `SELECT ${fn}(${f}${args(fn)}) FROM events WHERE ${range}${p.chance(0.3) ? ' GROUP BY level' : ''} LIMIT 5`;
  }
  if (k < 0.45) {
    const fn = p.pick(TRANSFORMS);
    const inner = `${p.pick(['count', 'first', 'last', 'max', 'mean', 'mode', 'sum'])}(${f})`;
    return `SELECT ${fn}(${inner}${args(fn)}) FROM events WHERE ${range} GROUP BY time(${p.pick(['1h', '3h'])})${p.chance(0.3) ? ' fill(0)' : ''} LIMIT 5`;
  }
  if (k < 0.6) return `SELECT ${p.pick(MATH)}(${f})${p.chance(0.4) ? `, ${g}` : ''} FROM events WHERE ${range} LIMIT 3`;
  if (k < 0.7) return `SELECT ${p.pick(MATH)}(${p.pick(['first', 'last', 'max', 'count', 'mode'])}(${f})) FROM events WHERE ${range} GROUP BY time(6h)`;
  if (k < 0.82) return `SELECT ${selector(p, f)}, ${g}${p.chance(0.4) ? ', level' : ''} FROM events WHERE ${range}${p.chance(0.4) ? ` GROUP BY ${p.pick(['level', 'time(6h)', 'host'])}` : ''}`;
  if (k < 0.9) return `SELECT ${p.pick(['count', 'first', 'last', 'max', 'mode', 'distinct'])}(${f}) FROM (SELECT ${f}, ${g} FROM events WHERE ${range})${p.chance(0.5) ? ` WHERE ${range} GROUP BY time(6h)` : ''}`;
  return `SELECT ${f} ${p.pick(['+', '*', '-', '/', '%', '&', '|', '^', '=', '<', 'AND'])} ${p.pick([g, '1', "'x'", 'true', '2.5'])} FROM events WHERE ${range} LIMIT 3`;
}
