/**
 * Storage that the catalog does not name, found at start-up: a database directory under the
 * data directory, a retention-policy directory under a database, a WAL record of an unknown
 * database or policy.
 *
 * With the catalog as last saved (source `current`, meta/store.ts) such storage is what an
 * interrupted DROP left behind, and start-up removes it (database-registry.ts, shard/loader.ts)
 * or skips it (WAL replay). With any other catalog, the catalog is what is missing, not the
 * data: its previous copy predates the last change, and `none` means both files were damaged
 * or the meta directory was lost or not restored. Removing would then delete every point of
 * the databases the lost save knew (seen: a bit flip in each catalog file, or an empty meta
 * directory, and the next start deleted the whole data directory). Instead each is adopted
 * back into the catalog with an infinite retention and the shard group duration its shard
 * directories show, and a warning says what the catalog alone held (users, grants, continuous
 * queries, retention durations, deletes not yet compacted away).
 */
import { readdir } from 'node:fs/promises';
import { decodeName, encodeName } from './database.js';
import type { EngineLogger } from './logger.js';
import type { Catalog } from './meta/catalog.js';
import { parseShardDirName } from './shard/shard-set.js';

/** Whether storage the catalog does not name is garbage of a finished DROP (else: adopt it). */
export function catalogNamesAllStorage(catalog: Catalog): boolean {
  return catalog.source === 'current';
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
