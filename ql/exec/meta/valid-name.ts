/**
 * 1.x's meta.ValidName for the database and retention policy names CREATE statements make: not
 * empty, not `.` or `..`, no `/` or `\`, and only printable characters (Go's unicode.IsPrint:
 * letters, marks, numbers, punctuation, symbols and the ASCII space). Anything else is
 * `invalid name`, checked before the statement looks at anything else.
 */
import { MetaError } from './errors.js';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u;

export function requireValidName(name: string): void {
  if (name === '' || name === '.' || name === '..' || /[/\\]/.test(name) || !PRINTABLE.test(name)) {
    throw new MetaError('invalid name', 'invalid_name');
  }
}
