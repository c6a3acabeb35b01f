/**
 * One response, written once. uWS rules (shared/notes/dependencies.md): the HttpResponse is only
 * usable until it is ended or aborted, `onAborted` must be registered before any async work, and
 * every write after async work is wrapped in `cork`. Reply owns the single onAborted slot and
 * fans it out, so the body reader and the route can both react to a vanished client.
 *
 * Every response carries the common headers (spec "Common response headers"; decisions.md):
 * X-Service-Version / X-Service-Build, the same values as X-Influxdb-Version / X-Influxdb-Build,
 * and one UUID (time-based, as 1.x's; request-id.ts) as both Request-Id and X-Request-Id. A request with an Origin header also gets
 * 1.x's CORS headers (browser clients such as Grafana in browser-access mode need them).
 * A 200 body to a request that accepts gzip is compressed here (gzip-response.ts decides how),
 * so every route gets it without a change of its own.
 */
import { STATUS_CODES } from 'node:http';
import type { HttpResponse } from 'uWebSockets.js';
import { RequestIds } from './request-id.js';
import { goJsonString } from '../format/go-json-string.js';
import { GZIP_HEADERS, GzipBodyStream, gzipBody, MIN_GZIP_BYTES, SYNC_GZIP_MAX_BYTES } from './gzip-response.js';
import { INFLUXDB_BUILD_HEADER, INFLUXDB_VERSION_HEADER, SERVICE_BUILD, SERVICE_VERSION_HEADER } from '../version.js';

export interface SendOptions {
  /** HEAD request: send the headers and Content-Length of `body`, but not the body. */
  readonly head?: boolean;
  /** Close the connection after this response (unread body, timeout). */
  readonly close?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
}

const JSON_TYPE = 'application/json';
const NO_OPTIONS: SendOptions = {};
const NO_HEADERS: Readonly<Record<string, string>> = {};
/** Longest body text passed to uWS as a string (see send()). */
const DIRECT_STRING_CHARS = 16 * 1024;
const TEXT_TYPE = 'text/plain; charset=utf-8';

function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
}

/** 1.x truncates the X-Influxdb-Error header to this many bytes. */
const ERROR_HEADER_BYTES = 1024;

/**
 * 1.x repeats the message of every error answer except 401 in `X-Influxdb-Error` (its
 * httpError; a 401 carries WWW-Authenticate instead). Client libraries read it (influxdb-java,
 * influxdb-client-python, aioinflux); a header value cannot hold a line break, as in Go.
 */
export function errorHeaders(status: number, message: string): Record<string, string> {
  if (status === 401 || (status >= 200 && status < 300)) return {};
  let text = message.replace(/[\r\n]/g, ' ');
  if (Buffer.byteLength(text) > ERROR_HEADER_BYTES) text = Buffer.from(text).subarray(0, ERROR_HEADER_BYTES).toString();
  return { 'X-Influxdb-Error': text };
}

/** 1.x's CORS answer (its `cors` handler wrapper), sent when the request names an Origin. */
const CORS_HEADERS: readonly (readonly [string, string])[] = [
  ['Access-Control-Allow-Headers', 'Accept, Accept-Encoding, Authorization, Content-Length, Content-Type, X-CSRF-Token, X-HTTP-Method-Override'],
  ['Access-Control-Allow-Methods', 'DELETE, GET, OPTIONS, POST, PUT'],
  ['Access-Control-Expose-Headers', 'Date, X-InfluxDB-Version, X-InfluxDB-Build'],
];

/** How the app observes a reply (server/app.ts): accounting, access log, shutdown. */
export interface ReplyHooks {
  /** Runs exactly once: with the status sent, or undefined when the client aborted first. */
  onFinish(status: number | undefined): void;
  /** When true at send time, the connection is closed after the response (graceful stop). */
  closeConnections(): boolean;
  /** The request's Origin header ('' when none): CORS headers are added when present. */
  readonly origin?: string;
  /** The request accepts gzip and `[server] gzip_responses` is on: 200 bodies may be compressed (gzip-response.ts). */
  readonly gzip?: boolean;
}

/** A streamed body: see Reply.stream(). */
export interface BodyStream {
  write(chunk: string | Uint8Array): Promise<void>;
  end(): void;
  abort(): void;
}

/** One generator per process: its random node and clock sequence are drawn once. */
const requestIds = new RequestIds();

const NO_HOOKS: ReplyHooks = { onFinish: () => {}, closeConnections: () => false };

export class Reply {
  readonly requestId = requestIds.next();
  #aborted = false;
  #done = false;
  readonly #abortListeners: (() => void)[] = [];

  constructor(
    private readonly res: HttpResponse,
    private readonly hooks: ReplyHooks = NO_HOOKS,
  ) {
    res.onAborted(() => {
      this.#aborted = true;
      this.#finish(undefined);
      for (const listener of this.#abortListeners.splice(0)) listener();
    });
  }

  /** The raw response, for the body reader (onData). Do not write to it directly. */
  get raw(): HttpResponse {
    return this.res;
  }

  /** True once the client went away; nothing more can be sent. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** True once a response was sent or the client aborted. */
  get finished(): boolean {
    return this.#done;
  }

  onAbort(listener: () => void): void {
    if (this.#aborted) listener();
    else this.#abortListeners.push(listener);
  }

  json(status: number, value: unknown, opts: SendOptions = {}): void {
    this.send(status, JSON.stringify(value), JSON_TYPE, opts);
  }

  /** `{"error": message}`: the spec's error body shape, ended by a newline as Go's JSON encoder ends 1.x's. */
  error(status: number, message: string, opts: SendOptions = {}): void {
    this.failure(status, message, `{"error":${goJsonString(message)}}\n`, JSON_TYPE, opts);
  }

  /** An error answer whose body was formatted by the caller (CSV, pretty JSON): adds X-Influxdb-Error. */
  failure(status: number, message: string, body: string, contentType: string, opts: SendOptions = {}): void {
    this.send(status, body, contentType, { ...opts, headers: { ...errorHeaders(status, message), ...opts.headers } });
  }

  text(status: number, text: string, opts: SendOptions = {}): void {
    this.send(status, text, TEXT_TYPE, opts);
  }

  /** 1.x's 204 from /write and /ping: its handlers set the JSON Content-Type before they know there is no body. */
  noContent(): void {
    this.#write(204, JSON_TYPE, (res, close) => (close ? res.endWithoutBody(0, true) : res.endWithoutBody()), NO_OPTIONS);
  }

  /** A response without body and without Content-Length (204, or HEAD of one). */
  empty(status: number, opts: SendOptions = {}): void {
    // endWithoutBody() with no argument writes no Content-Length (none is allowed on a 204);
    // passing `undefined` explicitly makes uWS report a garbage length.
    this.#write(status, undefined, (res, close) => (close ? res.endWithoutBody(0, true) : res.endWithoutBody()), opts);
  }

  send(status: number, body: string | Uint8Array, contentType: string, opts: SendOptions = {}): void {
    if (this.hooks.gzip === true && status === 200 && opts.head !== true && this.#sendGzip(body, contentType, opts)) return;
    // A short string goes to uWS as is (saves a Buffer per response); a long one is encoded
    // first, which measured faster than uWS's own conversion (last-1000-raw's 150 KB body).
    if (typeof body === 'string' && body.length > DIRECT_STRING_CHARS) body = Buffer.from(body);
    this.#write(
      status,
      contentType,
      (res, close) => (opts.head ? res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, close) : res.end(body, close)),
      opts,
    );
  }

  /** A compressed 200 (gzip-response.ts); false when the body is too small to be worth it. */
  #sendGzip(body: string | Uint8Array, contentType: string, opts: SendOptions): boolean {
    // Characters stand in for bytes: only the threshold depends on it.
    const size = typeof body === 'string' ? body.length : body.byteLength;
    if (size < MIN_GZIP_BYTES) return false;
    if (size > SYNC_GZIP_MAX_BYTES) {
      const out = this.stream(200, contentType, opts.headers);
      void out.write(body).then(out.end);
      return true;
    }
    const zipped = gzipBody(body);
    this.#write(200, contentType, (res, close) => res.end(zipped, close), { ...opts, headers: { ...opts.headers, ...GZIP_HEADERS } });
    return true;
  }

  /** Writes at most once; silently drops the response when the client is gone. */
  #write(
    status: number,
    contentType: string | undefined,
    end: (res: HttpResponse, close: boolean) => void,
    opts: SendOptions,
  ): void {
    if (this.#done) return;
    this.#finish(status);
    const close = opts.close === true || this.hooks.closeConnections();
    this.res.cork(() => {
      this.#writeHead(status, contentType, opts.headers ?? {});
      end(this.res, close);
    });
  }

  /**
   * Start a streamed 200 response (chunked transfer encoding). Each `write` resolves once
   * uWS accepted the bytes (it waits for onWritable under backpressure), so a slow client
   * slows the producer instead of growing server memory. Call `end()` exactly once.
   */
  stream(status: number, contentType: string, headers?: Readonly<Record<string, string>>): BodyStream {
    if (this.#done) return { write: async () => undefined, end: () => undefined, abort: () => undefined };
    this.#finish(status);
    if (this.hooks.gzip === true && status === 200) return this.#gzipStream(contentType, headers);
    return this.#rawStream(status, contentType, headers ?? NO_HEADERS);
  }

  /** stream() through gzip: the zlib stream is destroyed as soon as the client goes away. */
  #gzipStream(contentType: string, headers: Readonly<Record<string, string>> | undefined): BodyStream {
    const raw = this.#rawStream(200, contentType, headers ? { ...headers, ...GZIP_HEADERS } : GZIP_HEADERS);
    const gz = new GzipBodyStream(raw);
    this.onAbort(() => gz.destroy());
    return {
      write: (chunk) => gz.write(chunk),
      end: () => gz.end(),
      abort: () => {
        gz.destroy();
        raw.abort();
      },
    };
  }

  #rawStream(status: number, contentType: string, headers: Readonly<Record<string, string>>): BodyStream {
    let started = false;
    const head = () => {
      if (started) return;
      started = true;
      this.#writeHead(status, contentType, headers);
    };
    return {
      write: (text: string | Uint8Array) =>
        new Promise<void>((resolve) => {
          if (this.#aborted) return resolve();
          let ok = true;
          this.res.cork(() => {
            head();
            ok = this.res.write(text);
          });
          if (ok) return resolve();
          // Resolved from the next loop turn, not inside uWS's callback: Node does not run the
          // microtasks queued there until some other event comes, so a producer that waits only
          // on this stream (rows already in memory) stalled until a timer fired (the query timeout).
          this.res.onWritable(() => {
            setImmediate(resolve);
            return true;
          });
          this.onAbort(resolve);
        }),
      end: () => {
        if (this.#aborted) return;
        this.res.cork(() => {
          head();
          this.res.end();
        });
      },
      // Closing mid-body is how a chunked body says it is incomplete: the client cannot take a
      // cut answer for a whole one (no terminating chunk).
      abort: () => {
        if (!this.#aborted) this.res.close();
      },
    };
  }

  /** Status line and the common headers every response carries (call inside cork). */
  #writeHead(status: number, contentType: string | undefined, headers: Readonly<Record<string, string>>): void {
    const res = this.res;
    res.writeStatus(statusLine(status));
    res.writeHeader('X-Service-Version', SERVICE_VERSION_HEADER);
    res.writeHeader('X-Service-Build', SERVICE_BUILD);
    res.writeHeader('X-Influxdb-Version', INFLUXDB_VERSION_HEADER);
    res.writeHeader('X-Influxdb-Build', INFLUXDB_BUILD_HEADER);
    res.writeHeader('Request-Id', this.requestId);
    res.writeHeader('X-Request-Id', this.requestId);
    const origin = this.hooks.origin;
    if (origin) {
      res.writeHeader('Access-Control-Allow-Origin', origin);
      for (const [name, value] of CORS_HEADERS) res.writeHeader(name, value);
    }
    if (contentType) res.writeHeader('Content-Type', contentType);
    // [auth] RFC 7235 (and 1.x): every 401 names the scheme to use.
    if (status === 401) res.writeHeader('WWW-Authenticate', 'Basic realm="Strata"');
    for (const [name, value] of Object.entries(headers)) res.writeHeader(name, value);
  }

  #finish(status: number | undefined): void {
    if (this.#done) return;
    this.#done = true;
    this.hooks.onFinish(status);
  }
}
