/** Public surface of the storage engine. Other layers import only from here. */
export * from './errors.js';
export * from './point.js';
export * from './logger.js';
/** Block encodings (TSM value formats), exposed for perf/ benchmarks and format tools. */
export * as encoding from './encoding/index.js';
