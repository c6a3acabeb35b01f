/**
 * An acknowledged write survives SIGKILL (HTTP level). Several rounds on the same directories:
 * concurrent writers send points (single lines and multi-line batches); as soon as one of them
 * has its 204 the server is SIGKILLed in the response callback, with other writes in flight.
 * After each restart every point that got a 204 in any round must be there with its exact
 * value. Points whose request got no answer may or may not be there. Then the same for DDL:
 * every acknowledged CREATE/ALTER/DROP/GRANT survives a SIGKILL, and replaying the WAL after a
 * crash never brings back points of a dropped database, measurement, series or policy.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { exec, http, query, removeDir, rows, startServer, stopServer, type Server } from './harness.js';
import { mulberry32 } from '../../engine/index.js';

const ROUNDS = 10;
const WRITERS = 4;
const BASE_MS = 1_700_000_000_000; // ms timestamps: exact as JS numbers when read back

/** POST /write; resolves with the status, or 0 when the connection failed. Calls onStatus synchronously. */
function write(port: number, body: string, onStatus: (status: number) => void): Promise<number> {
  return new Promise((ok) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/write?db=dur&precision=ms', agent: false },
      (res) => {
        onStatus(res.statusCode ?? 0);
        res.resume();
        res.on('end', () => ok(res.statusCode ?? 0));
        res.on('error', () => ok(res.statusCode ?? 0));
      },
    );
    req.on('error', () => ok(0));
    req.end(body);
  });
}

interface CrashPlan {
  readonly rounds: number;
  readonly env?: Record<string, string>;
  /** Kill on the first 204 after this many acknowledged requests... */
  readonly minAcks: (rand: () => number) => number;
  /** ...and not before this many ms into the round. */
  readonly minMs: (rand: () => number) => number;
  /** Lines per request for a writer's seq-th request. */
  readonly lines: (seq: number) => number;
}

/** Runs the rounds on one set of directories; returns how many acknowledged points were checked. */
async function crashRounds(dir: string, plan: CrashPlan, holder: { srv?: Server }): Promise<number> {
  const acked = new Map<string, string>(); // "time|w" -> "v"
  const rand = mulberry32(20261121);
  let srv = await startServer({ dir, env: plan.env });
  holder.srv = srv;
  await exec(srv.port, 'CREATE DATABASE dur');

  for (let round = 0; round < plan.rounds; round++) {
    const s: Server = srv;
    const killAfter = plan.minAcks(rand);
    const killAt = Date.now() + plan.minMs(rand);
    let acks = 0;
    let killed = false;
    const onStatus = (status: number): void => {
      if (status !== 204 || killed) return;
      acks++;
      if (acks >= killAfter && Date.now() >= killAt) {
        killed = true;
        s.child.kill('SIGKILL'); // synchronously, in the 204's response callback
      }
    };
    const writer = async (w: number): Promise<void> => {
      for (let seq = 0; !killed && seq < 100_000; seq++) {
        const n = plan.lines(seq);
        const lines: [string, string][] = [];
        for (let k = 0; k < n; k++) {
          const id = seq * 1000 + k;
          lines.push([`${BASE_MS + round * 1_000_000_000 + w * 100_000_000 + id}|w${w}`, `${round * 100_000_000 + id}`]);
        }
        const body = lines
          .map(([key, v]) => {
            const [t, wt] = key.split('|');
            return `dur,w=${wt} v=${v}i,r=${round}i ${t}`;
          })
          .join('\n');
        const status = await write(s.port, body, onStatus);
        if (status === 204) for (const [key, v] of lines) acked.set(key, v);
        else if (status !== 0) assert.fail(`round ${round}: /write answered ${status} before the kill`);
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    const exit = await s.exited;
    assert.equal(exit.signal, 'SIGKILL', `round ${round}: server was not killed (acks ${acks}/${killAfter})\n${s.log()}`);

    srv = await startServer({ dir, env: plan.env });
    holder.srv = srv;
    const answer = await query(srv.port, 'SELECT v, w FROM dur', { db: 'dur', epoch: 'ms' });
    const stored = new Map<string, string>();
    for (const row of rawRows(answer)) stored.set(`${row[0]}|${row[2]}`, row[1] ?? '');
    assert.ok(stored.size >= acked.size, `round ${round}: ${stored.size} stored < ${acked.size} acknowledged`);
    const missing = [...acked].filter(([key, v]) => stored.get(key) !== v);
    assert.deepEqual(missing.slice(0, 10), [], `round ${round}: ${missing.length} of ${acked.size} acknowledged points lost or changed\n${srv.log().slice(-2000)}`);
  }
  return acked.size;
}

describe('SIGKILL right after a 204 loses nothing', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-crash-'));
  const holder: { srv?: Server } = {};
  after(async () => {
    if (holder.srv) await stopServer(holder.srv, 'SIGKILL');
    removeDir(dir);
  });

  it(`${ROUNDS} rounds, ${WRITERS} concurrent writers, every acknowledged point survives`, async (t) => {
    const n = await crashRounds(dir, {
      rounds: ROUNDS,
      minAcks: (rand) => 3 + Math.floor(rand() * 40),
      minMs: () => 0,
      lines: (seq) => (seq % 3 === 0 ? 1 + (seq % 7) : 1), // some multi-line batches
    }, holder);
    t.diagnostic(`${n} acknowledged points checked after ${ROUNDS} SIGKILLs`);
    assert.ok(n >= ROUNDS * 3, `only ${n} points acknowledged`);
  });
});

describe('SIGKILL while the memtable is being flushed loses nothing', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-crash-flush-'));
  const holder: { srv?: Server } = {};
  after(async () => {
    if (holder.srv) await stopServer(holder.srv, 'SIGKILL');
    removeDir(dir);
  });

  it('5 rounds of 1.2-3 s with a 1 s flush interval and 10,000-point flush batches', async (t) => {
    const n = await crashRounds(dir, {
      rounds: 5,
      env: { SERVICE__FLUSH__INTERVAL_SECS: '1', SERVICE__FLUSH__MAX_POINTS_PER_BATCH: '10000' },
      minAcks: () => 1,
      minMs: (rand) => 1200 + Math.floor(rand() * 1800),
      lines: (seq) => (seq % 2 === 0 ? 200 : 1 + (seq % 50)),
    }, holder);
    t.diagnostic(`${n} acknowledged points checked after 5 SIGKILLs during flushes`);
    assert.ok(n >= 5_000, `only ${n} points acknowledged`);
  });
});

/** Rows of the first series, every cell as a string. */
function rawRows(answer: unknown): string[][] {
  const a = answer as { results?: { series?: { values?: unknown[][] }[] }[] };
  return (a.results?.[0]?.series?.[0]?.values ?? []).map((r) => r.map((c) => String(c)));
}

describe('acknowledged DDL survives SIGKILL, and drops stay dropped after WAL replay', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-crash-ddl-'));
  let srv: Server | undefined;
  after(async () => {
    if (srv) await stopServer(srv, 'SIGKILL');
    removeDir(dir);
  });
  const crash = async (): Promise<Server> => {
    if (srv) await stopServer(srv, 'SIGKILL');
    srv = await startServer({ dir });
    return srv;
  };
  const write = async (s: Server, qs: string, body: string) => {
    const res = await http(s.port, 'POST', `/write?precision=s&${qs}`, body);
    assert.equal(res.status, 204, res.body);
  };
  const show = async (s: Server, q: string, db = '') => JSON.stringify(await query(s.port, q, db ? { db } : {}));

  it('each DDL answer is durable: SHOW after a SIGKILL equals SHOW before it', async () => {
    let s = await crash();
    const steps: [string, string][] = [
      ['CREATE DATABASE a', 'SHOW DATABASES'],
      ['CREATE RETENTION POLICY r1 ON a DURATION 2h REPLICATION 1 DEFAULT', 'SHOW RETENTION POLICIES ON a'],
      ["CREATE USER u WITH PASSWORD 'p'", 'SHOW USERS'],
      ['GRANT READ ON a TO u', 'SHOW GRANTS FOR u'],
      ['ALTER RETENTION POLICY r1 ON a DURATION 3h', 'SHOW RETENTION POLICIES ON a'],
      ['CREATE DATABASE b', 'SHOW DATABASES'],
      ['DROP DATABASE b', 'SHOW DATABASES'],
      ['DROP USER u', 'SHOW USERS'],
    ];
    for (const [ddl, q] of steps) {
      await exec(s.port, ddl);
      const before = await show(s, q);
      s = await crash();
      assert.equal(await show(s, q), before, `after ${ddl} and SIGKILL`);
    }
  });

  it('DROP DATABASE / MEASUREMENT / SERIES / RETENTION POLICY then SIGKILL: replay does not resurrect dropped points', async () => {
    let s = await crash();
    await exec(s.port, 'CREATE DATABASE d');
    await write(s, 'db=d', 'm,t=old v=1 1700000000\nm2 v=1 1700000000');
    await exec(s.port, 'DROP DATABASE d');
    await exec(s.port, 'CREATE DATABASE d');
    await write(s, 'db=d', 'm,t=new v=2 1700000001');
    s = await crash();
    assert.deepEqual(rows(await query(s.port, 'SELECT * FROM m', { db: 'd', epoch: 's' })), [[1700000001, 'new', 2]]);
    assert.deepEqual(rows(await query(s.port, 'SHOW MEASUREMENTS', { db: 'd' })), [['m']]);

    await write(s, 'db=d', 'x,t=old v=1 1700000000');
    await exec(s.port, 'DROP MEASUREMENT x', { db: 'd' });
    await write(s, 'db=d', 'x,t=new v="s" 1700000001'); // a new type after the drop
    s = await crash();
    assert.deepEqual(rows(await query(s.port, 'SELECT * FROM x', { db: 'd', epoch: 's' })), [[1700000001, 'new', 's']]);
    assert.deepEqual(rows(await query(s.port, 'SHOW FIELD KEYS FROM x', { db: 'd' })), [['v', 'string']]);

    await write(s, 'db=d', 'y,t=a v=1 1700000000\ny,t=b v=1 1700000000');
    await exec(s.port, "DROP SERIES FROM y WHERE t = 'a'", { db: 'd' });
    await write(s, 'db=d', 'y,t=a v=5 1700000005');
    s = await crash();
    assert.deepEqual(rows(await query(s.port, 'SELECT * FROM y', { db: 'd', epoch: 's' })), [
      [1700000000, 'b', 1],
      [1700000005, 'a', 5],
    ]);

    await exec(s.port, 'CREATE RETENTION POLICY rp2 ON d DURATION INF REPLICATION 1');
    await write(s, 'db=d&rp=rp2', 'z v=1 1700000000');
    await exec(s.port, 'DROP RETENTION POLICY rp2 ON d');
    await exec(s.port, 'CREATE RETENTION POLICY rp2 ON d DURATION INF REPLICATION 1');
    s = await crash();
    assert.deepEqual(rows(await query(s.port, 'SELECT * FROM rp2.z', { db: 'd' })), []);

    await write(s, 'db=d', 'del,t=x v=1 1700000000\ndel,t=y v=2 1700000000');
    await exec(s.port, "DELETE FROM del WHERE t = 'x'", { db: 'd' });
    s = await crash();
    assert.deepEqual(rows(await query(s.port, 'SELECT * FROM del', { db: 'd', epoch: 's' })), [[1700000000, 'y', 2]]);
  });
});
