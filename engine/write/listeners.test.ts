import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseToColumns } from '../lineprotocol/columns.js';
import { parseLineProtocol } from '../lineprotocol/parse.js';
import { WriteListeners, type WrittenRange } from './listeners.js';

const opts = { precision: 's' as const, defaultSec: 0, defaultNsec: 0 };
const body = Buffer.from('m,h=a v=1 30\nn v=2 10\nm,h=b v=3 20');

test('a listener hears only the databases it wants, from points and from columns alike', () => {
  const listeners = new WriteListeners();
  const heard: WrittenRange[] = [];
  const remove = listeners.add((r) => heard.push(...r), (db) => db === 'a');
  listeners.notify('b', 'autogen', parseLineProtocol(body, opts).points);
  listeners.notifyColumns('b', 'autogen', parseToColumns(body, opts));
  assert.deepEqual(heard, []);
  listeners.notify('a', 'autogen', parseLineProtocol(body, opts).points);
  listeners.notifyColumns('a', 'autogen', parseToColumns(body, opts));
  const want = [
    { db: 'a', rp: 'autogen', measurement: 'm', minNs: 20_000_000_000n, maxNs: 30_000_000_000n, points: 2 },
    { db: 'a', rp: 'autogen', measurement: 'n', minNs: 10_000_000_000n, maxNs: 10_000_000_000n, points: 1 },
  ];
  assert.deepEqual(heard, [...want, ...want]);
  remove();
  listeners.notify('a', 'autogen', parseLineProtocol(body, opts).points);
  assert.equal(heard.length, 4);
});
