import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferRecycler } from './buffer-recycler.js';

test('a released buffer is handed out again for a body of about its size, never for a much smaller one', () => {
  const r = new BufferRecycler();
  const a = r.take(100_000);
  const under = a.buffer;
  r.release(a);
  const b = r.take(90_000);
  assert.equal(b.buffer, under, 'reused');
  assert.equal(b.length, 90_000);
  r.release(b);
  assert.notEqual(r.take(10_000).buffer, under, 'a far larger buffer is not used for a small body');
  assert.notEqual(r.take(200_000).buffer, under, 'nor a too small one');
});

test('copyOf copies; buffers the recycler did not hand out (Node pool slices) are never taken back', () => {
  const r = new BufferRecycler();
  const src = Buffer.from('x'.repeat(70_000));
  const copy = r.copyOf(src);
  assert.deepEqual(copy, src);
  assert.notEqual(copy.buffer, src.buffer);
  const pooled = Buffer.from('small'); // a slice of Node's shared 8 KiB pool
  r.release(pooled);
  r.release(Buffer.alloc(70_000));
  assert.notEqual(r.take(70_000).buffer, pooled.buffer);
  r.release(copy);
  r.release(copy); // twice: still one entry
  assert.equal(r.take(70_000).buffer, copy.buffer);
  assert.notEqual(r.take(70_000).buffer, copy.buffer);
});
