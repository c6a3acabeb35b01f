import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cache } from './cache.js';
import { FieldType } from '../point.js';

test('a successor cache starts its entries near the previous average length, and reads the same', () => {
  const first = new Cache();
  for (let s = 0; s < 4; s++) {
    const fields = first.fields(`m,host=h${s}`);
    for (let i = 0; i < 1000; i++) {
      first.entry(fields, 'v', FieldType.Float).append(i, i / 2);
      first.noteAppend(16);
    }
  }
  const next = first.successor();
  const e = next.entry(next.fields('m,host=h0'), 'v', FieldType.Float);
  // The capacity is internal; what matters is that appends beyond it and views still work.
  for (let i = 0; i < 3000; i++) e.appendNumber(3000 - i, i);
  const { offsets, column } = e.view();
  assert.equal(offsets.length, 3000);
  assert.equal(offsets[0], 1);
  assert.equal((column.values as Float64Array)[0], 2999);
  assert.equal(new Cache().successor().entry(new Map(), 'v', FieldType.Integer).length, 0);
});

test('noteAppends adds bytes and values as repeated noteAppend does', () => {
  const a = new Cache();
  const b = new Cache();
  for (let i = 0; i < 5; i++) a.noteAppend(16);
  b.noteAppends(80, 5);
  assert.deepEqual([a.bytes, a.values], [b.bytes, b.values]);
});

test('sortedEntries: TSM key order (UTF-8 bytes), for ASCII keys and for keys past it', () => {
  const order = (series: string[]) => {
    const c = new Cache();
    for (const s of series) for (const f of ['w', 'v']) c.entry(c.fields(s), f, FieldType.Float).append(0, 1);
    const byBytes = series.flatMap((s) => [`${s}#!~#v`, `${s}#!~#w`]).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    assert.deepEqual(
      c.sortedEntries().map((e) => e.key),
      byBytes,
    );
  };
  order(['m,h=a1', 'm,h=a', 'm,h=a!', 'm,h=B', 'l,h=z', 'm,h=a\\ b']);
  // U+FF61 sorts before U+1F600 in UTF-16 code units but after it in UTF-8 bytes.
  order(['m,h=\u{1f600}', 'm,h=\uff61', 'm,h=\u00e9', 'm,h=e']);
});
