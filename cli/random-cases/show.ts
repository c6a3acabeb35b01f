/** Random SHOW statements over the shared dataset (WITH KEY, FROM regexes, WHERE on tags and fields, LIMIT/OFFSET). */
import type { Picker } from './pick.js';

const FROM = ['cpu', 'mem', 'diskio', 'events', 'sparse', 'net', '/e/', '/^c/', '"hvac zone,east"'];

function where(p: Picker): string {
  return p.pick(['', '', ` WHERE host = '${p.pick(['server01', 'server02', 'server03'])}'`, ' WHERE host =~ /0[12]/', " WHERE region != 'us-east'", " WHERE level = 'error' OR level = 'warn'"]);
}

const limits = (p: Picker): string => p.pick(['', '', ' LIMIT 2', ' LIMIT 1 OFFSET 1', ' OFFSET 2']);
const from = (p: Picker): string => p.pick(['', ` FROM ${p.pick(FROM)}`]);

export function randomShow(p: Picker): string {
  const shapes: (() => string)[] = [
    () => `SHOW MEASUREMENTS${p.pick(['', ' WITH MEASUREMENT =~ /e/', ' WITH MEASUREMENT = cpu', ' WITH MEASUREMENT =~ /^(cpu|mem)$/'])}${where(p)}${limits(p)}`,
    () => `SHOW TAG KEYS${from(p)}${where(p)}${limits(p)}`,
    () => `SHOW TAG VALUES${from(p)} WITH KEY ${p.pick(['= host', '= region', '=~ /o/', 'IN (host, level)', '!= host', '= "name"', '= sensor'])}${where(p)}${limits(p)}`,
    () => `SHOW FIELD KEYS${from(p)}${limits(p)}`,
    () => `SHOW SERIES${from(p)}${where(p)}${limits(p)}`,
    () => `SHOW MEASUREMENT${p.pick(['', ' EXACT'])} CARDINALITY${where(p)}`,
    () => `SHOW TAG KEY CARDINALITY${from(p)}`,
    () => `SHOW FIELD KEY CARDINALITY${from(p)}`,
    () => `SHOW RETENTION POLICIES${p.pick(['', ' ON telemetry', ' ON archive'])}`,
    () => `SHOW TAG VALUES ON ${p.pick(['telemetry', 'archive'])} FROM ${p.pick(['cpu', '/./'])} WITH KEY = host${limits(p)}`,
    () => `SHOW FIELD KEYS ON archive FROM ${p.pick(['cpu', 'rollup', '"longterm".cpu', 'longterm.rollup'])}`,
  ];
  return p.pick(shapes)();
}
