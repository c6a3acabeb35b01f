/** Line protocol: parse (1.x semantics), format, canonical series keys. */
export { LineProtocolError } from './errors.js';
export {
  clearKeyCache,
  decodeBody,
  describeLineError,
  parseLineProtocol,
  parseLineProtocolText,
  setKeyCacheCapacity,
  type LineError,
  type ParseOptions,
  type ParseResult,
} from './parse.js';
export { formatFields, formatFloat, formatPoint, formatTimestampNs } from './format.js';
/** The parse workers' body → columns step (benchmarks measure it alone). */
export { parseToColumns } from './columns.js';
export {
  compareBytes,
  escapeFieldKey,
  escapeMeasurement,
  escapeStringValue,
  escapeTag,
  escapeTagKey,
  escapeTagValue,
  makeSeriesKey,
  parseSeriesKey,
  pointName,
  sortTags,
  unescapeFieldKey,
  unescapeMeasurement,
  unescapeTag,
} from './series-key.js';
