/** Public surface of the storage engine. Other layers import only from here. */
export * from './errors.js';
export * from './point.js';
export * from './logger.js';
export * from './wal/wal.js';
export { lockDirectory, DirectoryLockedError } from './fs/lock.js';
export type { DirectoryLock } from './fs/lock.js';
