import { StrataError } from '../errors.js';

/**
 * A value that cannot be expressed in line protocol (NaN/±Inf float, malformed series key).
 * Bad input lines are not thrown: parseLineProtocol reports them as LineError values so a
 * batch can be partially accepted, as 1.x does.
 */
export class LineProtocolError extends StrataError {
  constructor(message: string) {
    super('line_protocol', 400, message);
  }
}
