/**
 * Reader of version-1 index sections (fixed 32-byte entries, full keys; layout in format.ts).
 * Files of this version are no longer written, only read.
 */
import type { Buffer } from 'node:buffer';
import {
  ENTRY_COUNT_OFFSET,
  ENTRY_MAX_TIME_OFFSET,
  ENTRY_MIN_TIME_OFFSET,
  ENTRY_OFFSET_OFFSET,
  ENTRY_SIZE,
  ENTRY_SIZE_OFFSET,
  KEY_LENGTH_SIZE,
  KEY_TRAILER_SIZE,
} from './format.js';
import { TablesBuilder, type IndexLayout, type IndexTables } from './index-tables.js';

/** Offsets beyond Number.MAX_SAFE_INTEGER are refused. */
const MAX_SAFE_HIGH_WORD = 0x1fffff;
const TWO_POW_32 = 0x1_0000_0000;

export function parseIndexV1(bytes: Buffer, layout: IndexLayout): IndexTables {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const t = new TablesBuilder(layout, bytes.length, ENTRY_SIZE, false);
  const need = (pos: number, end: number) => {
    if (end > bytes.length) throw t.corrupt(pos, `index record runs past the index end (${end} > ${bytes.length})`);
  };
  let pos = 0;
  for (let k = 0; k < layout.keyCount; k++) {
    need(pos, pos + KEY_LENGTH_SIZE);
    const keyStart = pos + KEY_LENGTH_SIZE;
    const keyEnd = keyStart + view.getUint16(pos);
    need(pos, keyEnd + KEY_TRAILER_SIZE);
    t.addKey(pos, [bytes.subarray(keyStart, keyEnd)], view.getUint8(keyEnd));
    const n = view.getUint32(keyEnd + 1);
    if (n === 0) throw t.corrupt(keyEnd + 1, 'key with no blocks');
    const first = keyEnd + KEY_TRAILER_SIZE;
    need(pos, first + n * ENTRY_SIZE);
    for (let j = 0; j < n; j++) {
      const e = first + j * ENTRY_SIZE;
      const high = view.getUint32(e + ENTRY_OFFSET_OFFSET);
      const offset = high > MAX_SAFE_HIGH_WORD ? Infinity : high * TWO_POW_32 + view.getUint32(e + ENTRY_OFFSET_OFFSET + 4);
      t.addEntry(
        e,
        view.getBigInt64(e + ENTRY_MIN_TIME_OFFSET),
        view.getBigInt64(e + ENTRY_MAX_TIME_OFFSET),
        offset,
        view.getUint32(e + ENTRY_SIZE_OFFSET),
        view.getUint32(e + ENTRY_COUNT_OFFSET),
      );
    }
    pos = first + n * ENTRY_SIZE;
  }
  if (pos !== bytes.length) throw t.corrupt(pos, `${bytes.length - pos} bytes after the last key record`);
  return t.finish(pos);
}
