// Corruption table for WAL segments (style.md item 11, after Prometheus wlog_test.go): one
// row per kind of damage, each stating the expected recovery. For every row: open succeeds,
// every intact entry replays with its exact bytes, the damage is logged, appends continue
// above every surviving seq, and a second open has nothing left to report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, cp, mkdir, mkdtemp, open, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectingLogger } from '../logger.js';
import { fixtureEntry } from './crash-writer.fixture.js';
import { QUARANTINE_DIR, RECORD_HEADER_SIZE, SEGMENT_HEADER_SIZE, decodeRecord, segmentFileName } from './record.js';
import type { WalWriteAppend, WalWriteEntry } from './record.js';
import { Wal } from './wal.js';
import { tempDir, type CleanupScope } from '../testing/temp-dir.js';

const ENTRIES = 60;
const SEGMENT_SIZE = 16 * 1024;

interface Rec {
  readonly seq: bigint;
  readonly offset: number;
  readonly size: number;
}

interface Layout {
  readonly dir: string;
  /** Segment file names, ascending. */
  readonly segments: readonly string[];
  readonly records: ReadonlyMap<string, readonly Rec[]>;
}

interface Row {
  readonly name: string;
  /** Damage the WAL; return the seqs that are expected to be lost. */
  readonly damage: (w: Layout) => Promise<bigint[]>;
  readonly expect: RegExp;
  readonly quarantined: number;
}

const at = <T>(xs: readonly T[], i: number): T => {
  const x = i < 0 ? xs[xs.length + i] : xs[i];
  assert.ok(x !== undefined, `no element ${i}`);
  return x;
};
const seg = (w: Layout, i: number) => at(w.segments, i);
const recs = (w: Layout, i: number) => w.records.get(seg(w, i)) ?? [];
const path = (w: Layout, i: number) => join(w.dir, seg(w, i));

async function patch(file: string, offset: number, bytes: Uint8Array): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    await fh.write(bytes, 0, bytes.length, offset);
  } finally {
    await fh.close();
  }
}

async function flipByte(file: string, offset: number): Promise<void> {
  const byte = (await readFile(file))[offset] ?? 0;
  await patch(file, offset, Uint8Array.of(byte ^ 0xff));
}

const rows: Row[] = [
  {
    name: 'torn tail: last record cut short → truncated, that record lost',
    damage: async (w) => {
      const last = at(recs(w, -1), -1);
      await truncate(path(w, -1), last.offset + 10);
      return [last.seq];
    },
    expect: /torn tail/,
    quarantined: 0,
  },
  {
    name: 'torn tail: zeros after the last record (size extended, data never written) → truncated, nothing lost',
    damage: async (w) => {
      await appendFile(path(w, -1), new Uint8Array(3000));
      return [];
    },
    expect: /torn tail/,
    quarantined: 0,
  },
  {
    name: 'flipped checksum byte in a sealed segment → that record quarantined, later records kept',
    damage: async (w) => {
      const r = at(recs(w, 1), 2);
      await flipByte(path(w, 1), r.offset + 5);
      return [r.seq];
    },
    expect: /quarantine/,
    quarantined: 1,
  },
  {
    name: 'flipped checksum byte in the last complete record → quarantined (corruption, not a torn write)',
    damage: async (w) => {
      const r = at(recs(w, -1), -1);
      await flipByte(path(w, -1), r.offset + 4);
      return [r.seq];
    },
    expect: /quarantine/,
    quarantined: 1,
  },
  {
    name: 'bad length field, plausible value → resync on the next record, one record lost',
    damage: async (w) => {
      const r = at(recs(w, 1), 3);
      const len = new DataView(new ArrayBuffer(4));
      len.setUint32(0, r.size - RECORD_HEADER_SIZE + 40, true);
      await patch(path(w, 1), r.offset + 16, new Uint8Array(len.buffer));
      return [r.seq];
    },
    expect: /quarantine/,
    quarantined: 1,
  },
  {
    name: 'bad length field, 0xffffffff → resync on the next record, one record lost',
    damage: async (w) => {
      const r = at(recs(w, 0), 1);
      await patch(path(w, 0), r.offset + 16, Uint8Array.of(0xff, 0xff, 0xff, 0xff));
      return [r.seq];
    },
    expect: /quarantine/,
    quarantined: 1,
  },
  {
    name: 'zero-filled 4 KiB page in the middle of a segment → records touching it lost, the rest kept',
    damage: async (w) => {
      await patch(path(w, 0), 4096, new Uint8Array(4096));
      return recs(w, 0)
        .filter((r) => r.offset < 8192 && r.offset + r.size > 4096)
        .map((r) => r.seq);
    },
    expect: /quarantine/,
    quarantined: 1,
  },
  {
    name: 'garbage after the last record of a sealed segment → quarantined, nothing lost',
    damage: async (w) => {
      await appendFile(path(w, 0), Buffer.alloc(500, 0x5a));
      return [];
    },
    expect: /quarantine/,
    quarantined: 1,
  },
  {
    name: '0-byte sealed segment → quarantined, its entries lost, later segments kept',
    damage: async (w) => {
      await truncate(path(w, 1), 0);
      return recs(w, 1).map((r) => r.seq);
    },
    expect: /segment unreadable/,
    quarantined: 1,
  },
  {
    name: '0-byte last segment (crash right after creating it) → quarantined, nothing lost',
    damage: async (w) => {
      await writeFile(join(w.dir, segmentFileName(BigInt(ENTRIES + 1))), new Uint8Array(0));
      return [];
    },
    expect: /segment unreadable/,
    quarantined: 1,
  },
  {
    // Before: the whole segment went to quarantine and its intact entries were lost.
    name: 'bad segment header magic → header quarantined and rewritten from the name, nothing lost',
    damage: async (w) => {
      await flipByte(path(w, 2), 0);
      return [];
    },
    expect: /header damaged/,
    quarantined: 1,
  },
  {
    name: 'bad header and every record damaged → segment quarantined, its entries lost',
    damage: async (w) => {
      await flipByte(path(w, 2), 0);
      for (const r of recs(w, 2)) await flipByte(path(w, 2), r.offset + RECORD_HEADER_SIZE + 1);
      return recs(w, 2).map((r) => r.seq);
    },
    expect: /segment unreadable/,
    quarantined: 1,
  },
  {
    // Before: start-up failed with EISDIR.
    name: 'a directory where a segment belongs → moved to quarantine, other segments kept',
    damage: async (w) => {
      await rm(path(w, 2));
      await mkdir(path(w, 2));
      return recs(w, 2).map((r) => r.seq);
    },
    expect: /segment unreadable/,
    quarantined: 1,
  },
  {
    name: 'leftover .tmp files (interrupted roll or repair) → deleted, nothing lost',
    damage: async (w) => {
      await writeFile(join(w.dir, segmentFileName(BigInt(ENTRIES + 1)) + '.tmp'), 'half a header');
      await writeFile(join(w.dir, seg(w, 0) + '.tmp'), Buffer.alloc(100, 1));
      return [];
    },
    expect: /leftover temp file/,
    quarantined: 0,
  },
];

const entries: WalWriteAppend[] = Array.from({ length: ENTRIES }, (_, i) => fixtureEntry(i, 600 + ((i * 137) % 500)));

async function buildWal(t: CleanupScope): Promise<Layout> {
  const dir = await tempDir(t, 'strata-wal-corrupt-');
  const wal = await Wal.open(dir, { segmentSizeBytes: SEGMENT_SIZE });
  for (const e of entries) await wal.append(e);
  await wal.close();
  const segments = (await readdir(dir)).filter((n) => n.endsWith('.wal')).sort();
  const records = new Map<string, Rec[]>();
  for (const name of segments) {
    const bytes = await readFile(join(dir, name));
    const list: Rec[] = [];
    for (let off = SEGMENT_HEADER_SIZE; off < bytes.length; ) {
      const d = decodeRecord(bytes, off);
      assert.equal(d.status, 'ok');
      if (d.status !== 'ok') break;
      list.push({ seq: d.entry.seq, offset: off, size: d.size });
      off += d.size;
    }
    records.set(name, list);
  }
  assert.ok(segments.length >= 4, 'the table needs at least four segments');
  assert.ok((records.get(segments[0] ?? '') ?? []).some((r) => r.offset + r.size > 8192), 'segment 0 must cover the zeroed page');
  return { dir, segments, records };
}

async function replayAll(wal: Wal): Promise<WalWriteEntry[]> {
  const out: WalWriteEntry[] = [];
  for await (const e of wal.replay()) out.push(e);
  return out;
}

function assertSurvivors(got: readonly WalWriteEntry[], lost: ReadonlySet<bigint>, extra: readonly bigint[] = []): void {
  const want = entries.map((_, i) => BigInt(i + 1)).filter((s) => !lost.has(s));
  assert.deepEqual(
    got.map((e) => e.seq),
    [...want, ...extra],
  );
  for (const e of got) {
    const src = entries[Number(e.seq) - 1];
    if (extra.includes(e.seq) || src === undefined) continue;
    assert.deepEqual({ ...e, lines: Buffer.from(e.lines) }, { ...src, seq: e.seq, lines: Buffer.from(src.lines) }, `entry ${e.seq} bytes`);
  }
}

for (const row of rows) {
  test(`WAL corruption: ${row.name}`, async (t) => {
    const layout = await buildWal(t);
    const lost = new Set(await row.damage(layout));

    const log = collectingLogger();
    const wal = await Wal.open(layout.dir, { segmentSizeBytes: SEGMENT_SIZE }, log);
    const warned = log.entries.filter((e) => e.level === 'warn');
    assert.ok(
      warned.some((e) => row.expect.test(e.msg)),
      `expected a warning matching ${row.expect}, got ${JSON.stringify(warned.map((e) => e.msg))}`,
    );
    assertSurvivors(await replayAll(wal), lost);
    // Each quarantine warning names the seqs it skipped: every lost one, and no survivor.
    const claimed = new Set<bigint>();
    for (const e of warned) {
      const text = (e.obj as { lostSeqs?: string }).lostSeqs;
      if (text === undefined) continue;
      const m = /^(\d+)(?:\.\.(\d+)| and later)?$/.exec(text);
      assert.ok(text === 'none' || m, `lostSeqs ${text}`);
      if (!m) continue;
      const hi = m[2] !== undefined ? BigInt(m[2]) : text.endsWith('later') ? BigInt(ENTRIES) : BigInt(m[1]!);
      for (let q = BigInt(m[1]!); q <= hi; q++) claimed.add(q);
    }
    if (row.quarantined > 0) assert.deepEqual([...claimed].filter((q) => !lost.has(q)), [], 'a survivor named lost');
    if (row.quarantined > 0) assert.deepEqual([...lost].filter((q) => !claimed.has(q)), [], 'a lost seq not named');
    const quarantine = await readdir(join(layout.dir, QUARANTINE_DIR)).catch(() => []);
    assert.equal(quarantine.length, row.quarantined, `quarantine holds ${JSON.stringify(quarantine)}`);

    const maxSurviving = BigInt(ENTRIES - [...lost].filter((s) => s === BigInt(ENTRIES)).length);
    const seq = await wal.append(fixtureEntry(999, 123));
    assert.ok(seq > maxSurviving, `new seq ${seq} must exceed ${maxSurviving}`);
    await wal.close();

    const log2 = collectingLogger();
    const again = await Wal.open(layout.dir, { segmentSizeBytes: SEGMENT_SIZE }, log2);
    assert.deepEqual(
      log2.entries.filter((e) => e.level === 'warn' || e.level === 'error'),
      [],
      'second open is clean',
    );
    assertSurvivors(await replayAll(again), lost, [seq]);
    await again.close();
  });
}

// Fuzz on top of the table: arbitrary overwritten ranges and an optional truncation, anywhere
// in any segment. Open must succeed, replay must never invent or alter an entry, and every
// record whose bytes (and segment header) were left alone must come back.
test('WAL corruption fuzz: random damage never fails open, never alters an entry, keeps every untouched record', async (t) => {
  const base = await buildWal(t);
  const damageArb = fc.record({
    patches: fc.array(
      fc.record({ seg: fc.nat(), offset: fc.nat(), length: fc.integer({ min: 1, max: 600 }), byte: fc.integer({ min: 0, max: 255 }) }),
      { minLength: 1, maxLength: 4 },
    ),
    cut: fc.option(fc.record({ seg: fc.nat(), at: fc.nat() })),
  });
  await fc.assert(
    fc.asyncProperty(damageArb, async ({ patches, cut }) => {
      const dir = await mkdtemp(join(tmpdir(), 'strata-wal-fuzz-'));
      try {
        await cp(base.dir, dir, { recursive: true });
        const touched = new Map<string, { from: number; to: number }[]>();
        const touch = (name: string, from: number, to: number) => touched.set(name, [...(touched.get(name) ?? []), { from, to }]);
        for (const p of patches) {
          const name = at(base.segments, p.seg % base.segments.length);
          const size = (await stat(join(dir, name))).size;
          if (size === 0) continue;
          const offset = p.offset % size;
          const length = Math.min(p.length, size - offset);
          await patch(join(dir, name), offset, new Uint8Array(length).fill(p.byte));
          touch(name, offset, offset + length);
        }
        if (cut) {
          const name = at(base.segments, cut.seg % base.segments.length);
          const size = (await stat(join(dir, name))).size;
          await truncate(join(dir, name), cut.at % (size + 1));
          touch(name, cut.at % (size + 1), Number.MAX_SAFE_INTEGER);
        }
        const untouched = new Set<bigint>();
        for (const name of base.segments) {
          const ranges = touched.get(name) ?? [];
          if (ranges.some((r) => r.from < SEGMENT_HEADER_SIZE)) continue;
          for (const r of base.records.get(name) ?? []) {
            if (!ranges.some((d) => d.from < r.offset + r.size && d.to > r.offset)) untouched.add(r.seq);
          }
        }

        const wal = await Wal.open(dir, { segmentSizeBytes: SEGMENT_SIZE });
        const got = await replayAll(wal);
        let prev = 0n;
        for (const e of got) {
          assert.ok(e.seq > prev, 'replay order');
          prev = e.seq;
          const src = entries[Number(e.seq) - 1];
          assert.ok(src !== undefined, `invented seq ${e.seq}`);
          assert.deepEqual({ ...e, lines: Buffer.from(e.lines) }, { ...src, seq: e.seq, lines: Buffer.from(src.lines) });
        }
        const seen = new Set(got.map((e) => e.seq));
        for (const seq of untouched) assert.ok(seen.has(seq), `untouched record ${seq} lost`);
        const next = await wal.append(fixtureEntry(1, 10));
        assert.ok(next > prev);
        await wal.close();

        const log = collectingLogger();
        const again = await Wal.open(dir, { segmentSizeBytes: SEGMENT_SIZE }, log);
        assert.deepEqual(log.entries.filter((e) => e.level === 'warn' || e.level === 'error'), [], 'second open is clean');
        assert.deepEqual((await replayAll(again)).map((e) => e.seq), [...got.map((e) => e.seq), next]);
        await again.close();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }),
    { numRuns: 30 },
  );
});

test('quarantine never overwrites earlier evidence when a segment name comes back', async (t) => {
  const dir = await tempDir(t, 'strata-wal-quarantine-');
  const name = segmentFileName(1n);
  for (let round = 0; round < 2; round++) {
    await writeFile(join(dir, name), new Uint8Array(0));
    const wal = await Wal.open(dir);
    await wal.close(); // leaves a fresh, empty 1.wal behind
  }
  assert.deepEqual((await readdir(join(dir, QUARANTINE_DIR))).sort(), [`${name}.corrupt-0`, `${name}.corrupt-0.1`]);
});
