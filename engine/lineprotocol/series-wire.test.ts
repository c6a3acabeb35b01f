/**
 * Series sent once per worker: whatever the sequence of batches, a batch's series decode to
 * exactly what the worker's builder had, across table resets (capacity) and a replaced worker
 * (a new sender, the same receiver); a receiver that missed a reply refuses instead of
 * answering wrong series.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { SeriesRef } from './columns.js';
import { SeriesReceiver, SeriesSender } from './series-wire.js';

const ref = (n: number): SeriesRef => ({ key: `m,host=h${n}`, measurement: 'm', tags: [{ key: 'host', value: `h${n}` }] });

test('batches decode to their series across resets and a replaced sender', () => {
  fc.assert(
    fc.property(
      fc.array(fc.uniqueArray(fc.nat(40), { minLength: 0, maxLength: 12 }), { maxLength: 60 }),
      fc.integer({ min: 1, max: 30 }),
      fc.nat(60),
      (batches, capacity, replaceAt) => {
        const receiver = new SeriesReceiver();
        let sender = new SeriesSender(capacity);
        batches.forEach((ids, i) => {
          if (i === replaceAt) sender = new SeriesSender(capacity);
          const series = ids.map(ref);
          const wire = structuredClone(sender.encode(series));
          assert.deepEqual(receiver.decode(wire), series);
          assert.ok(receiver.size <= Math.max(capacity, series.length));
        });
      },
    ),
  );
});

test('a series is sent with the first batch that uses it, then by number only', () => {
  const sender = new SeriesSender();
  assert.equal(sender.encode([ref(1), ref(2)]).added.length, 2);
  const again = sender.encode([ref(2), ref(1), ref(3)]);
  assert.deepEqual(again.added, [ref(3)]);
  assert.deepEqual(again.ids, [1, 0, 2]);
  assert.equal(again.reset, false);
});

test('a receiver that missed the reply adding a series answers undefined', () => {
  const sender = new SeriesSender();
  const receiver = new SeriesReceiver();
  sender.encode([ref(1)]); // lost on the way
  assert.equal(receiver.decode(sender.encode([ref(1), ref(2)])), undefined);
});
