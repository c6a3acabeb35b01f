/**
 * Storage that the catalog does not name, found at start-up: a database directory under the
 * data directory, a retention-policy directory under a database, a WAL record of an unknown
 * database or policy.
 *
 * Removed (or, for WAL records, skipped) only when the catalog says it was dropped:
 *   - a database directory: the catalog is the one last saved (source `current`, meta/store.ts)
 *     and holds the database-wide tombstone DROP DATABASE saves together with the removal of
 *     the database (Engine.dropDatabase). The directory is deleted right after that save, so
 *     the tombstone is still there when a crash left the directory behind.
 *   - a retention-policy directory: the catalog is `current` (a dropped policy's directory
 *     stays until the next start, after its tombstone may be gone).
 * Anything else means the catalog is what is missing, not the data: its previous copy
 * predates the last change, `none` means both files were damaged or the meta directory was
 * lost, and an intact catalog restored from an older backup does not know databases created
 * since. Removing then deleted every point of those databases (seen: a bit flip in each
 * catalog file, an empty meta directory, or meta/ alone restored from an older backup, and the
 * next start deleted the data). Instead each is adopted back into the catalog with an
 * infinite retention and the shard group duration its shard directories show, and a warning
 * says what only the catalog held (users, grants, continuous queries, retention durations,
 * deletes not yet compacted away).
 */
import { readdir } from 'node:fs/promises';
import { decodeName, encodeName } from './database.js';
import type { EngineLogger } from './logger.js';
import type { Catalog } from './meta/catalog.js';
import { parseShardDirName } from './shard/shard-set.js';
import { TRUE_EXPR } from './series/tag-expr.js';
import { MAX_TIME_NS, MIN_TIME_NS } from './time.js';

/** Whether a retention-policy directory the catalog does not name is a dropped policy's (else: adopt it). */
export function catalogNamesAllStorage(catalog: Catalog): boolean {
  return catalog.source === 'current';
}

/**
 * Whether the catalog records that database `db` (or its policy `rp`) was dropped: a
 * tombstone over all of it, as DROP DATABASE and DROP RETENTION POLICY leave.
 */
export function catalogDropped(catalog: Catalog, db: string, rp?: string): boolean {
  if (catalog.source !== 'current') return false;
  return catalog
    .tombstones()
    .some(
      (t) =>
        t.database === db &&
        (t.retentionPolicy === undefined || t.retentionPolicy === rp) &&
        t.measurements === null &&
        BigInt(t.minNs) <= MIN_TIME_NS &&
        BigInt(t.maxNs) >= MAX_TIME_NS &&
        JSON.stringify(t.predicate) === JSON.stringify(TRUE_EXPR),
    );
}

const LOST = 'users, grants, continuous queries, retention durations and deletes not yet compacted were only in the catalog';

/** The entries of `dir` that are directories (none when it cannot be listed). */
export async function subdirectories(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
}

/**
 * A directory name decoded to the database or policy name it encodes; undefined when it is not
 * an encoding encodeName makes (`series.log.quarantine`, an operator's `autogen.old`): such a
 * directory is never taken for a database or policy, so never adopted nor removed.
 */
export function decodedName(dirName: string): string | undefined {
  try {
    const name = decodeName(dirName);
    return encodeName(name) === dirName ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Adds the database stored at `dbDir` to the catalog with the retention policies its
 * subdirectories name (`autogen`, the usual default, when it has none or among them).
 */
export async function adoptDatabase(catalog: Catalog, name: string, dbDir: string, logger: EngineLogger): Promise<void> {
  const rps = await policiesIn(dbDir);
  const first = rps.find((r) => r.name === 'autogen') ?? rps[0];
  await catalog.createDatabase(name, first ?? { name: 'autogen', durationSec: 0, replicaN: 1 });
  for (const rp of rps) if (rp !== first) await catalog.createRetentionPolicy(name, rp, false);
  logger.warn({ db: name, rps: rps.map((r) => r.name), catalog: catalog.source }, `database not in the catalog adopted with infinite retention (${LOST})`);
}

/** Adds a retention policy found on disk (or in the WAL) to a database of the catalog. */
export async function adoptRetentionPolicy(catalog: Catalog, db: string, rp: string, rpDir: string | undefined, logger: EngineLogger): Promise<void> {
  const spec = rpDir === undefined ? { name: rp, durationSec: 0, replicaN: 1 } : await policyAt(rp, rpDir);
  if (!catalog.database(db)) await catalog.createDatabase(db, spec);
  else await catalog.createRetentionPolicy(db, spec, catalog.database(db)?.defaultRp === null);
  logger.warn({ db, rp, catalog: catalog.source }, `retention policy not in the catalog adopted with infinite retention (${LOST})`);
}

interface AdoptedPolicy {
  readonly name: string;
  readonly durationSec: number;
  readonly replicaN: number;
  readonly shardGroupDurationSec?: number;
}

async function policiesIn(dbDir: string): Promise<AdoptedPolicy[]> {
  const out: AdoptedPolicy[] = [];
  for (const dir of (await subdirectories(dbDir)).sort()) {
    const name = decodedName(dir);
    if (name !== undefined) out.push(await policyAt(name, `${dbDir}/${dir}`));
  }
  return out;
}

/** New shards keep the span the existing ones have (1.x shard groups of the lost policy). */
async function policyAt(name: string, rpDir: string): Promise<AdoptedPolicy> {
  const spans = (await subdirectories(rpDir)).map((d) => parseShardDirName(d)?.spanSec).filter((s): s is number => s !== undefined && s > 0);
  const span = spans.length > 0 ? Math.max(...spans) : undefined;
  return { name, durationSec: 0, replicaN: 1, ...(span !== undefined && { shardGroupDurationSec: span }) };
}
