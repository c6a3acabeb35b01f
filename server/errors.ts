/**
 * Errors raised by the HTTP layer itself. Like the engine's, each carries a stable `code` and
 * the `status` it maps to; server/http/errors.ts turns them into responses.
 */
import { StrataError } from '../engine/index.js';

/** Body (raw or decompressed) above server.max_body_size_bytes. 1.x text. */
export class PayloadTooLargeError extends StrataError {
  constructor() {
    super('payload_too_large', 413, 'request entity too large');
  }
}

/** Malformed request parameters or body encoding. */
export class BadRequestError extends StrataError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('bad_request', 400, message, options);
  }
}

/** The body did not fully arrive within server.request_timeout_secs; the connection is closed. */
export class RequestTimeoutError extends StrataError {
  constructor() {
    super('request_timeout', 408, 'request timeout: body not received in time');
  }
}

/** The server is stopping (graceful shutdown) and takes no new work. */
export class ServerStoppingError extends StrataError {
  constructor() {
    super('server_stopping', 503, 'server is shutting down');
  }
}

/** The client went away; nothing can be sent. Never rendered, only used to unwind. */
export class ClientAbortedError extends StrataError {
  constructor() {
    super('client_aborted', 499, 'client closed the connection');
  }
}

/** TLS is enabled but the certificate or key cannot be used. Start-up fails. */
export class TlsConfigError extends StrataError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('tls_config', 500, message, options);
  }
}

/** The listen address cannot be bound (in use, not local, no permission). Start-up fails. */
export class ListenError extends StrataError {
  constructor(host: string, port: number) {
    super('listen_failed', 500, `cannot listen on ${host}:${port}: address in use or not available`);
  }
}
