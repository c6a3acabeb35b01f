/**
 * Meta checkpoint: the catalog files. CatalogStore replaces `catalog.json` (and before it
 * `catalog.prev.json`) by atomic rename, so a read always sees one whole version; each copy
 * is still checked against its embedded checksum, and a damaged one is left out (the
 * restored engine then falls back to the other, exactly as it would at start-up).
 *
 * Tombstones remember, per shard directory, the first TSM generation written after them
 * (`marks`, keyed by the shard's path). `remapCatalogText` rewrites those keys when a backup
 * is restored under a different data directory, so deleted rows stay hidden.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { checksum64, initChecksum } from '../fs/checksum.js';
import { CATALOG_FILE, CATALOG_PREV_FILE } from '../meta/store.js';
import type { EngineLogger } from '../logger.js';

export const CATALOG_FILES = [CATALOG_FILE, CATALOG_PREV_FILE] as const;

interface TombstoneRecord {
  id?: string;
  database?: string;
  retentionPolicy?: string;
  marks?: Record<string, number>;
}

interface CatalogRecord {
  format: number;
  checksum: string;
  data: { tombstones?: TombstoneRecord[]; databases?: { name?: string; rps?: { name?: string }[] }[] } & Record<string, unknown>;
}

/** The parsed record when `text` is an intact catalog file, else undefined. */
export function parseCatalogText(text: string): CatalogRecord | undefined {
  try {
    const rec = JSON.parse(text) as CatalogRecord;
    if (typeof rec !== 'object' || rec === null || typeof rec.data !== 'object') return undefined;
    const sum = checksum64(Buffer.from(JSON.stringify(rec.data), 'utf8')).toString(16);
    return sum === rec.checksum ? rec : undefined;
  } catch {
    return undefined;
  }
}

function encodeCatalog(rec: CatalogRecord): string {
  const body = JSON.stringify(rec.data);
  const sum = checksum64(Buffer.from(body, 'utf8')).toString(16);
  return `{"format":${rec.format},"checksum":"${sum}","data":${body}}\n`;
}

/** Copy the intact catalog files of `metaDir` into `targetDir`; returns the names copied. */
export async function checkpointMeta(metaDir: string, targetDir: string, logger: EngineLogger): Promise<string[]> {
  await initChecksum();
  const copied: string[] = [];
  for (const name of CATALOG_FILES) {
    let text: string;
    try {
      text = await readFile(join(metaDir, name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if (!parseCatalogText(text)) {
      logger.warn({ file: join(metaDir, name) }, 'backup: damaged catalog file left out');
      continue;
    }
    await writeFile(join(targetDir, name), text);
    copied.push(name);
  }
  return copied;
}

/**
 * After the data copy: add to the copied catalog files (`copied`, in `targetDir`) the
 * tombstones the live catalog holds now and they lack: DELETEs answered while the WAL and data
 * were copied. The catalog is copied first, but a compaction that runs meanwhile may purge a
 * DELETE's rows from the newer files the data copy then takes, while an older file it takes
 * still holds them, hidden only by that tombstone; without it the restored backup served, for
 * a timestamp deleted during the backup, its value from before an overwrite acknowledged long
 * before the backup (found by the SIGKILL torture's live backups). Only tombstones of a
 * database (and policy) that both catalogs list are added: a DROP DATABASE or DROP RETENTION
 * POLICY during the backup is not half-applied.
 */
export async function addLaterTombstones(metaDir: string, targetDir: string, copied: readonly string[], logger: EngineLogger): Promise<number> {
  let later: CatalogRecord | undefined;
  try {
    later = parseCatalogText(await readFile(join(metaDir, CATALOG_FILE), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  if (!later) return 0;
  let added = 0;
  for (const name of copied) {
    const rec = parseCatalogText(await readFile(join(targetDir, name), 'utf8'));
    if (!rec) continue;
    const have = new Set((rec.data.tombstones ?? []).map((t) => t.id));
    const listed = (r: CatalogRecord, t: TombstoneRecord) => {
      const db = (r.data.databases ?? []).find((d) => d.name === t.database);
      return db !== undefined && (t.retentionPolicy === undefined || (db.rps ?? []).some((p) => p.name === t.retentionPolicy));
    };
    const more = (later.data.tombstones ?? []).filter((t) => !have.has(t.id) && listed(rec, t) && listed(later, t));
    if (more.length === 0) continue;
    rec.data.tombstones = [...(rec.data.tombstones ?? []), ...more];
    await writeFile(join(targetDir, name), encodeCatalog(rec));
    added += more.length;
  }
  if (added > 0) logger.info({ tombstones: added }, 'backup: DELETEs answered during the copy added to the catalog copy');
  return added;
}

/**
 * Rewrite tombstone marks keyed under `fromDataDir` to `toDataDir` (both as configured;
 * compared after path.join normalisation, as the engine builds shard paths). Returns the
 * text unchanged when nothing needs rewriting or the text is not an intact catalog.
 */
export function remapCatalogText(text: string, fromDataDir: string, toDataDir: string): string {
  const from = join(fromDataDir) + sep;
  const to = join(toDataDir) + sep;
  if (from === to) return text;
  const rec = parseCatalogText(text);
  if (!rec) return text;
  let changed = false;
  for (const t of rec.data.tombstones ?? []) {
    if (!t.marks) continue;
    const next: Record<string, number> = {};
    for (const [k, v] of Object.entries(t.marks)) {
      if (k.startsWith(from)) {
        next[to + k.slice(from.length)] = v;
        changed = true;
      } else next[k] = v;
    }
    t.marks = next;
  }
  return changed ? encodeCatalog(rec) : text;
}
