/**
 * A minimal HTTP/1.1 GET client over one kept-alive TCP connection, for latency benches.
 *
 * Why: on a loaded 2-core machine Node's `fetch` (undici) adds 1.5-2 ms of client-side work to
 * every request (measured against both servers), which is more than either server needs for a
 * small query; it compresses every ratio toward 1 and hides the servers' own latency. This
 * client writes the request line and reads the response straight off the socket (no header
 * objects, no streams), so the time measured is the server's plus one loopback round trip.
 * Understands `Content-Length` and `Transfer-Encoding: chunked` bodies, which is all the two
 * servers send to GET /query, and bodiless 204s (GET /ping); one request at a time per connection.
 */
import { connect, type Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface SocketResponse {
  readonly status: number;
  readonly body: string;
}

async function connected(url: URL): Promise<Socket> {
  const socket = connect(Number(url.port || 80), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

export class SocketGet {
  private buf: Buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  private failed: Error | undefined;
  /** The server closed the connection while no request was in flight (see ready()). */
  private closedIdle = false;
  private inFlight = false;

  private constructor(
    private socket: Socket,
    private readonly url: URL,
  ) {
    this.attach(socket);
  }

  private attach(socket: Socket): void {
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => {
      this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
      this.wake?.();
    });
    const fail = (err: Error) => {
      if (socket !== this.socket) return; // a connection replaced by ready()
      if (!this.inFlight && this.buf.length === 0) {
        this.closedIdle = true;
        return;
      }
      this.failed = err;
      this.wake?.();
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error(`connection to ${this.url.host} closed`)));
  }

  /**
   * Connects to `base` (http://host:port); `headers` go with every request. A gzip-encoded body
   * is inflated before get() resolves, as Go's http.Transport does for TSBS's runner when it
   * sent `Accept-Encoding: gzip` itself: the inflating is inside the timed span there too.
   */
  static async open(base: string, headers: Readonly<Record<string, string>> = {}): Promise<SocketGet> {
    const url = new URL(base);
    const get = new SocketGet(await connected(url), url);
    get.extraHeaders = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    return get;
  }

  private extraHeaders = '';

  /**
   * Reconnects when the server closed the connection while it was idle: uWS (Strata) drops a
   * connection that sent nothing for ~10 s, which a pass in blocks reaches while the other
   * server answers ten slow queries (count-all); Go's server (InfluxDB) keeps it. A client
   * pool would open a new connection too. Call before starting a request's clock, so the
   * connect is not timed.
   */
  async ready(): Promise<void> {
    if (!this.closedIdle) return;
    const socket = await connected(this.url);
    this.socket = socket;
    this.closedIdle = false;
    this.attach(socket);
  }

  /** GET `pathAndQuery`; resolves when the whole body has arrived. */
  async get(pathAndQuery: string): Promise<SocketResponse> {
    if (this.closedIdle) await this.ready();
    this.inFlight = true;
    try {
      return await this.exchange(pathAndQuery);
    } finally {
      this.inFlight = false;
    }
  }

  private async exchange(pathAndQuery: string): Promise<SocketResponse> {
    this.socket.write(`GET ${pathAndQuery} HTTP/1.1\r\nHost: ${this.url.host}\r\n${this.extraHeaders}\r\n`);
    for (;;) {
      const done = this.take();
      if (done) return done;
      if (this.failed) throw this.failed;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    this.socket.end();
  }

  /** One complete response off the front of the buffer, or undefined when more bytes are needed. */
  private take(): SocketResponse | undefined {
    const b = this.buf;
    const headEnd = b.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const head = b.toString('latin1', 0, headEnd);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let at = headEnd + 4;
    if (status === 204 || status === 304) {
      // No body by definition (RFC 9110 6.4.1); /ping answers 204.
      this.buf = b.subarray(at);
      return { status, body: '' };
    }
    if (length) {
      const end = at + Number(length[1]);
      if (b.length < end) return undefined;
      this.buf = b.subarray(end);
      return { status, body: decoded(head, b.subarray(at, end)) };
    }
    if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) throw new Error(`response without a length: ${head}`);
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = b.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(b.toString('latin1', at, lineEnd), 16);
      const dataEnd = lineEnd + 2 + size;
      if (b.length < dataEnd + 2) return undefined;
      if (size === 0) {
        // No trailers from either server: the terminating chunk is followed by one CRLF.
        this.buf = b.subarray(dataEnd + 2);
        return { status, body: decoded(head, Buffer.concat(parts)) };
      }
      parts.push(b.subarray(lineEnd + 2, dataEnd));
      at = dataEnd + 2;
    }
  }
}

function decoded(head: string, body: Buffer): string {
  return /\r\ncontent-encoding:\s*gzip/i.test(head) ? gunzipSync(body).toString('utf8') : body.toString('utf8');
}
