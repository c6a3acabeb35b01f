// SIGKILL test: a child process appends as fast as it can and prints every acknowledged
// seq; we kill it at a random moment (sometimes during its own open and repair), reopen,
// and require every acknowledged entry back with its exact bytes, round after round on the
// same directory. The seed is printed so a failing round can be replayed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectingLogger } from '../logger.js';
import { fixtureEntry } from './crash-writer.fixture.js';
import { mulberry32 as prng } from '../random.js';
import { Wal } from './wal.js';

const ROUNDS = 20;
const SEGMENT_SIZE = 1024 * 1024;
const FIXTURE = fileURLToPath(new URL('./crash-writer.fixture.js', import.meta.url));

interface Ack {
  readonly nonce: number;
  readonly size: number;
}

/** Run the writer until a random moment, SIGKILL it, return the acks it printed. */
async function crashRound(dir: string, seed: number, random: () => number): Promise<Map<bigint, Ack>> {
  const child = spawn(process.execPath, [FIXTURE, dir, String(seed), String(SEGMENT_SIZE)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let out = '';
  const killAfterReadyMs = 2 + random() * 80;
  // One round in four dies at a random point of start-up, possibly inside WAL repair.
  const earlyKillMs = random() < 0.25 ? random() * 200 : undefined;
  let timer: NodeJS.Timeout | undefined;
  const kill = () => child.kill('SIGKILL');
  if (earlyKillMs !== undefined) timer = setTimeout(kill, earlyKillMs);
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const first = out === '';
    out += chunk;
    if (first && earlyKillMs === undefined) timer = setTimeout(kill, killAfterReadyMs);
  });
  const safety = setTimeout(kill, 10_000);
  await exited;
  clearTimeout(timer);
  clearTimeout(safety);
  const acks = new Map<bigint, Ack>();
  // The last line may be cut mid-write; only newline-terminated lines count.
  for (const line of out.split('\n').slice(0, -1)) {
    const [seq, nonce, size] = line.split(' ');
    if (line === 'ready' || seq === undefined || nonce === undefined || size === undefined) continue;
    acks.set(BigInt(seq), { nonce: Number(nonce), size: Number(size) });
  }
  return acks;
}

test(`SIGKILL during appends: every acknowledged entry survives (${ROUNDS} rounds)`, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-wal-crash-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const seed = Date.now() % 1_000_000;
  const random = prng(seed);
  const acked = new Map<bigint, Ack>();
  let totalAcks = 0;
  let tornTails = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const acks = await crashRound(dir, seed + round, random);
    totalAcks += acks.size;
    for (const [seq, ack] of acks) {
      assert.ok(!acked.has(seq), `seed ${seed} round ${round}: seq ${seq} acknowledged twice`);
      acked.set(seq, ack);
    }

    const log = collectingLogger();
    const wal = await Wal.open(dir, { segmentSizeBytes: SEGMENT_SIZE }, log);
    let prev = 0n;
    let found = 0;
    for await (const e of wal.replay()) {
      assert.ok(e.seq > prev, `seed ${seed} round ${round}: seq ${e.seq} after ${prev}`);
      prev = e.seq;
      const ack = acked.get(e.seq);
      if (ack === undefined) continue; // written but the ack was never printed: allowed
      const want = fixtureEntry(ack.nonce, ack.size);
      assert.deepEqual({ ...e, lines: Buffer.from(e.lines) }, { ...want, seq: e.seq, lines: Buffer.from(want.lines) }, `seed ${seed} round ${round}: entry ${e.seq}`);
      found++;
    }
    assert.equal(found, acked.size, `seed ${seed} round ${round}: acknowledged entries missing after SIGKILL`);
    assert.ok(wal.lastSeq >= prev);
    if (log.entries.some((e) => /torn tail/.test(e.msg))) tornTails++;
    assert.deepEqual(
      log.entries.filter((e) => e.level === 'error'),
      [],
      `seed ${seed} round ${round}: a kill only ever tears the tail`,
    );
    await wal.close();
  }
  t.diagnostic(`seed ${seed}: ${totalAcks} acknowledged appends, ${acked.size} verified, torn tails repaired in ${tornTails} rounds`);
  assert.ok(totalAcks > ROUNDS, `seed ${seed}: the writer should get appends acknowledged (${totalAcks})`);
});
