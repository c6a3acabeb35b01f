/**
 * Random SHOW statements with the paging and filters clients combine: LIMIT/OFFSET and
 * SLIMIT/SOFFSET on every SHOW that takes them, WHERE on tags with regexes, time conditions,
 * ON and FROM together, and the cardinality forms.
 */
import type { Picker } from './pick.js';

const FROM = ['cpu', 'mem', 'net', 'events', '/^(cpu|mem)$/', '/e/', 'sparse'];

function where(p: Picker): string {
  return p.pick([
    '',
    " WHERE host = 'server01'",
    ' WHERE host =~ /^server0[12]$/',
    " WHERE host !~ /01$/ AND region =~ /us/",
    " WHERE region = 'us-west' OR host = 'server02'",
    " WHERE time > '2024-03-09T12:00:00Z'",
    " WHERE host =~ /./ AND time < '2024-03-09T06:00:00Z'",
  ]);
}

function paging(p: Picker, series: boolean): string {
  let s = '';
  if (p.chance(0.6)) s += ` LIMIT ${p.pick([1, 2, 3])}`;
  if (p.chance(0.4)) s += ` OFFSET ${p.pick([1, 2, 4])}`;
  if (series && p.chance(0.4)) s += ` SLIMIT ${p.pick([1, 2])}`;
  if (series && p.chance(0.3)) s += ` SOFFSET ${p.pick([1, 2])}`;
  return s;
}

export function randomShowPaging(p: Picker): string {
  const from = (): string => (p.chance(0.6) ? ` FROM ${p.pick(FROM)}` : '');
  const on = (): string => (p.chance(0.3) ? ' ON telemetry' : '');
  return p.pick([
    () => `SHOW MEASUREMENTS${on()}${p.pick(['', ' WITH MEASUREMENT =~ /^(cpu|mem|net)$/', ' WITH MEASUREMENT = cpu'])}${where(p)}${paging(p, false)}`,
    () => `SHOW TAG KEYS${on()}${from()}${where(p)}${paging(p, true)}`,
    () => `SHOW TAG VALUES${on()}${from()} WITH KEY ${p.pick(['= host', '=~ /^(host|region)$/', 'IN (host, iface)', '!= level'])}${where(p)}${paging(p, false)}`,
    () => `SHOW FIELD KEYS${on()}${from()}${paging(p, false)}`,
    () => `SHOW SERIES${on()}${from()}${where(p)}${paging(p, false)}`,
    () => `SHOW ${p.pick(['SERIES', 'MEASUREMENT', 'TAG KEY', 'FIELD KEY'])} ${p.pick(['', 'EXACT '])}CARDINALITY${on()}${from()}`,
    () => `SHOW TAG VALUES ${p.pick(['', 'EXACT '])}CARDINALITY${on()}${from()} WITH KEY = ${p.pick(['host', 'region'])}${where(p)}`,
    () => `SHOW DATABASES`,
  ])();
}
