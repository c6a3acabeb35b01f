/**
 * Crash-test child (not a test itself): opens an engine on the directories given in argv and
 * writes batches from several concurrent writers as fast as it can, printing `ack <writer>
 * <first> <last>` after each write resolves. The parent SIGKILLs it at a random moment and
 * checks that every acknowledged point survived. Small cache budget: flushes (TSM writes
 * and WAL truncation) happen all the time, so kills land in every phase.
 */
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';

const [root, roundText] = process.argv.slice(2);
if (!root || !roundText) process.exit(2);
const round = Number(roundText);
const engine = await Engine.open(
  engineOptions({
    walDir: `${root}/wal`,
    metaDir: `${root}/meta`,
    dataDir: `${root}/data`,
    flushIntervalSec: 0,
    cacheSnapshotBytes: 64 * 1024,
    wal: { segmentSizeBytes: 256 * 1024, batchSize: 64, batchDelayUs: 200 },
  }),
);
await engine.catalog.createDatabase('crash');
process.stdout.write('ready\n');

async function writer(w: number): Promise<void> {
  for (let n = 0; ; n += 50) {
    const lines: string[] = [];
    for (let i = n; i < n + 50; i++) lines.push(`crash,w=${w} v=${i}i,r=${round}i ${round * 1_000_000_000 + i}`);
    await engine.write({ db: 'crash', precision: 'ns', body: Buffer.from(lines.join('\n')) });
    process.stdout.write(`ack ${w} ${n} ${n + 49}\n`);
  }
}
await Promise.all([0, 1, 2, 3].map(writer));
