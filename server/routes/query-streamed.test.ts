/**
 * A non-chunked /query answer over HTTP: small answers are one body with Content-Length; one
 * past the buffered-answer size is sent as it is made (chunked transfer encoding) and is the
 * same document; when the query times out after rows went out, the body is cut (the client
 * gets an error), never ended as if whole.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Cell, StatementResult } from '../../ql/index.js';
import type { QueryRunRequest } from '../deps.js';
import { STREAM_AFTER_CELLS } from '../format/unchunked-answer.js';
import { startTestServer, type TestServer } from '../testing.js';

const ROWS = STREAM_AFTER_CELLS; // two cells a row: past the limit halfway
const PIECE = 10_000;

/** Streams ROWS rows of one series through the statement's sink, as the executor does. */
async function streamRows(req: QueryRunRequest, rows: number): Promise<void> {
  const sink = req.sinkFor!(0);
  for (let from = 0; from < rows; from += PIECE) {
    const values: Cell[][] = [];
    for (let i = from; i < Math.min(rows, from + PIECE); i++) values.push([BigInt(i) * 1_000_000_000n, i]);
    await sink.push({ name: 'm', columns: ['time', 'v'], values }, from + PIECE < rows);
  }
}

function get(port: number, q: string, extra = '', headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; text: string; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: `/query?db=db&epoch=s${extra}&q=${encodeURIComponent(q)}`, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, cut: !res.complete }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, cut: true }));
      res.on('aborted', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, cut: true }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('non-chunked /query answers past the buffered size', { timeout: 180_000 }, () => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer();
    srv.deps.databases.add('db');
  });
  after(() => srv.close());

  it('a small answer is one body with Content-Length', async () => {
    srv.deps.onQuery = async (req) => {
      await streamRows(req, 3);
      return [{ statementId: 0, series: [] }];
    };
    const res = await get(srv.port, 'SELECT v FROM m');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(res.text)));
    assert.equal(res.text, '{"results":[{"statement_id":0,"series":[{"name":"m","columns":["time","v"],"values":[[0,0],[1,1],[2,2]]}]}]}\n');
  });

  it('a large one is streamed, and is the same document', async () => {
    // Rows already in memory (no I/O between pieces): the stream's own backpressure wake-ups
    // must keep it going (they once stalled it until the query timeout cut it).
    srv.deps.onQuery = async (req) => {
      await streamRows(req, ROWS);
      return [{ statementId: 0, series: [] }, { statementId: 1 }];
    };
    const res = await get(srv.port, 'SELECT v FROM m; SHOW DATABASES');
    assert.equal(res.status, 200);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.ok(!res.cut);
    const body = JSON.parse(res.text) as { results: { statement_id: number; series: { values: number[][]; partial?: boolean }[] }[] };
    assert.equal(body.results.length, 2);
    const [series] = body.results[0]!.series;
    assert.equal(series!.values.length, ROWS);
    assert.deepEqual(series!.values[ROWS - 1], [ROWS - 1, ROWS - 1]);
    assert.equal(series!.partial, true, "1.x's mark on a merged series of more than one emitter chunk");
    assert.deepEqual(body.results[1], { statement_id: 1 });
  });

  it('a large pretty=true answer is streamed too, and is the same document as the buffered one', async () => {
    srv.deps.onQuery = async (req) => {
      await streamRows(req, ROWS);
      return [{ statementId: 0, series: [] }];
    };
    const res = await get(srv.port, 'SELECT v FROM m', '&pretty=true');
    assert.equal(res.status, 200);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.ok(!res.cut);
    const values = Array.from({ length: ROWS }, (_, i) => [i, i]);
    const want = { results: [{ statement_id: 0, series: [{ name: 'm', columns: ['time', 'v'], values, partial: true }] }] };
    assert.equal(res.text, JSON.stringify(want, null, 4) + '\n');
  });

  it('a large CSV answer is streamed too, and is the same document', async () => {
    srv.deps.onQuery = async (req) => {
      await streamRows(req, ROWS);
      return [{ statementId: 0, series: [] }];
    };
    const res = await get(srv.port, 'SELECT v FROM m', '', { accept: 'text/csv' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/csv');
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.ok(!res.cut);
    const lines = res.text.split('\n');
    assert.equal(lines.length, ROWS + 2, 'the header, every row, and the final newline');
    assert.equal(lines[0], 'name,tags,time,v');
    assert.equal(lines[ROWS], `m,,${ROWS - 1},${ROWS - 1}`);
  });

  it('a chunked answer of rows already in memory is not stalled by backpressure', async () => {
    srv.deps.onQuery = async (req) => {
      await streamRows(req, ROWS);
      return [{ statementId: 0, series: [] }];
    };
    const res = await get(srv.port, 'SELECT v FROM m', '&chunked=true');
    assert.ok(!res.cut, 'cut by the query timeout');
    const lines = res.text.trim().split('\n');
    assert.equal(lines.length, ROWS / PIECE);
    assert.deepEqual((JSON.parse(lines.at(-1)!) as { results: { series: { values: number[][] }[] }[] }).results[0]!.series[0]!.values.at(-1), [ROWS - 1, ROWS - 1]);
  });

  it('a timeout after rows were streamed cuts the body', async (t) => {
    // The rows must be out before the timeout fires: 2 s was too short at load 15-20 (the
    // timeout came first, and the client saw a reset instead of a cut 200).
    const srv = await startTestServer({ query_timeout_secs: 5 });
    t.after(() => srv.close());
    srv.deps.databases.add('db');
    srv.deps.onQuery = async (req) => {
      await streamRows(req, ROWS / 2 + PIECE); // just past the buffered size: streaming
      // The statement goes on past the timeout; the executor stops at its next check.
      await new Promise<void>((resolve) => (req.signal as unknown as { onStop(f: () => void): void }).onStop(() => resolve()));
      throw req.signal.reason;
    };
    const res = await get(srv.port, 'SELECT v FROM m');
    assert.equal(res.status, 200);
    assert.ok(res.cut, 'the client must not see a whole answer');
    assert.throws(() => JSON.parse(res.text));
    // Compressed (server/http/gzip-response.ts), the body is cut the same way, not ended as a whole gzip member.
    const zipped = await get(srv.port, 'SELECT v FROM m', '', { 'accept-encoding': 'gzip' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.ok(zipped.cut, 'the client must not see a whole compressed answer');
    // The server goes on answering.
    srv.deps.onQuery = async (req) => req.statements.map((_, i): StatementResult => ({ statementId: i }));
    assert.equal((await get(srv.port, 'SHOW DATABASES')).text, '{"results":[{"statement_id":0}]}\n');
  });
});
