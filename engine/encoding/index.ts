/**
 * Block encodings, the engine's on-disk value formats. The TSM layer uses `encodeBlock` /
 * `decodeBlock`; the per-column codecs are exported for benchmarks and format tests.
 */
export { encodeBlock, decodeBlock, blockType, blockCount } from './block.js';
export type { DecodeBuffers } from './block.js';
export { encodeTimestamps, decodeTimestamps, timestampCount } from './timestamp.js';
export { encodeFloats, decodeFloats } from './float.js';
export { encodeFloatDeltas, decodeFloatDeltas } from './float-delta.js';
export { encodeDecimals, decodeDecimals } from './decimal.js';
export { encodeFloatColumn, decodeFloatColumn } from './float-block.js';
export { encodeIntegers, decodeIntegers } from './integer.js';
export { encodeUnsigned, decodeUnsigned } from './unsigned.js';
export { encodeBooleans, decodeBooleans } from './boolean.js';
export { encodeStrings, decodeStrings } from './string.js';
