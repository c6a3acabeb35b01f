/**
 * Random line-protocol bodies built from the edges of the format (escapes, every value
 * spelling, duplicate keys, bad lines, timestamps at the int64 limits), each written into a
 * database of its own and read back with SELECT and SHOW. Lines without a timestamp get the
 * server's clock, so their times differ between two servers by construction.
 */
import type { Picker } from './pick.js';

const MEASUREMENT = ['m', 'm', 'cpu', 'we\\ ird', 'a\\,b', 'x=y', 'ünï', '"q"'];
const TAGS = ['', '', ',t=a', ',t=b', ',t=a,u=1', ',t=a\\ b', ',t=a\\,b', ',t=a\\=b', ',t=', ',=x', ',t=a,t=b', ',u=1,t=a', ',t="q"', ',t=ü'];
const VALUES = ['1', '1.5', '-1.5e3', '1e-2', '10i', '-10i', '9223372036854775807i', '9223372036854775808i', 'true', 'T', 'false', 'F', 'TRUE', 'tRUE', '"s"', '"s p\\"q"', '"a\\\\"', '""', 'NaN', 'inf', '1.', '.5', '+1', '1x', '-0', '0i'];
const FIELD_KEYS = ['v', 'v', 'w', 'f\\ k', 'f\\,k', 'f\\=k', 'time', '_x'];
const TIMES = [' 1', ' 1000000000', ' 1700000000000000000', ' -1', ' 1.5', ' abc', ' 1700000000', ' 9223372036854775806', ' 9223372036854775807', ' 00001'];
const ODD_LINES = ['# comment', '', '   ', 'm', 'm v', 'm v=', 'm,t v=1 1', ' m v=1 1', 'm  v=1 1', 'm v=1  2', 'm v=1, 1', 'm v=1 2 3'];

function line(p: Picker): string {
  if (p.chance(0.05)) return p.pick(ODD_LINES);
  const fields = Array.from({ length: 1 + Math.floor(p.r() * 3) }, () => `${p.pick(FIELD_KEYS)}=${p.pick(VALUES)}`);
  return `${p.pick(MEASUREMENT)}${p.pick(TAGS)} ${fields.join(',')}${p.pick(TIMES)}`;
}

export interface WriteCase {
  readonly body: string;
  readonly precision?: string;
}

export function randomWrite(p: Picker): WriteCase {
  const body = Array.from({ length: 1 + Math.floor(p.r() * 5) }, () => line(p)).join('\n') + (p.chance(0.5) ? '\n' : '');
  return p.chance(0.3) ? { body, precision: p.pick(['s', 'ms', 'u', 'n', 'h', 'm']) } : { body };
}
