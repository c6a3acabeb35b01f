export type * from './result.js';
