/**
 * Durable catalog file. `catalog.json` holds `{format, checksum, data}`; every save first keeps
 * the previous good content as `catalog.prev.json`, then atomically replaces `catalog.json`.
 * A damaged current file (bad JSON, checksum mismatch, empty) is quarantined and the previous
 * copy used; start-up never fails because of catalog damage. A directory where a catalog file
 * belongs (an operator's copy gone wrong) is damage too: it is moved aside the same way.
 *
 * `source` says where the data came from. Only `current` is the catalog as last saved: the
 * previous copy lacks the last change (a CREATE DATABASE, a DELETE's tombstone), and `none`
 * after damage or with a data directory that holds databases means the catalog was lost, not
 * that there never were any. Start-up trusts the catalog to tell dropped databases from live
 * ones only when it is `current` (orphan-storage.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic, moveFile, removeTempFiles } from '../fs/atomic.js';
import { checksum64 } from '../fs/checksum.js';
import type { EngineLogger } from '../logger.js';
import { EMPTY_CATALOG, type CatalogData } from './model.js';
import { makeDirDurable } from '../fs/atomic.js';
import { StorageIoError } from '../errors.js';

export const CATALOG_FILE = 'catalog.json';
export const CATALOG_PREV_FILE = 'catalog.prev.json';
const FORMAT = 1;

function encode(data: CatalogData): string {
  const body = JSON.stringify(data);
  const sum = checksum64(Buffer.from(body, 'utf8')).toString(16);
  return `{"format":${FORMAT},"checksum":"${sum}","data":${body}}\n`;
}

function decode(text: string): CatalogData | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'not an object';
  const rec = parsed as { format?: unknown; checksum?: unknown; data?: unknown };
  if (rec.format !== FORMAT) return `unknown format ${String(rec.format)}`;
  const body = JSON.stringify(rec.data);
  const sum = checksum64(Buffer.from(body, 'utf8')).toString(16);
  if (sum !== rec.checksum) return 'checksum mismatch';
  return { ...EMPTY_CATALOG, ...(rec.data as CatalogData) };
}

/** Where the loaded catalog came from: the current file, its previous copy, or neither (empty). */
export type CatalogSource = 'current' | 'previous' | 'none';

export class CatalogStore {
  private lastText: string | undefined;
  private sourceValue: CatalogSource = 'none';

  constructor(
    private readonly dir: string,
    private readonly logger: EngineLogger,
  ) {}

  async load(): Promise<CatalogData> {
    await makeDirDurable(this.dir);
    for (const name of await removeTempFiles(this.dir)) {
      this.logger.warn({ file: join(this.dir, name) }, 'removed leftover temp file of an interrupted catalog save');
    }
    for (const name of [CATALOG_FILE, CATALOG_PREV_FILE]) {
      const path = join(this.dir, name);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue;
        // An I/O error is not damage: the previous copy lacks the last change (a database,
        // a DELETE), and the next start, with the disk answering, reads this one.
        if (code !== 'EISDIR') throw StorageIoError.wrap(`cannot read the catalog ${path}`, err);
        text = '';
      }
      const result = text === '' ? 'empty or not a file' : decode(text);
      if (typeof result !== 'string') {
        this.lastText = text;
        this.sourceValue = name === CATALOG_FILE ? 'current' : 'previous';
        if (name !== CATALOG_FILE) this.logger.warn({ file: path }, 'using the previous catalog copy');
        return result;
      }
      const aside = join(this.dir, 'quarantine', `${name}.${Date.now()}`);
      await moveFile(path, aside);
      this.logger.error({ file: path, quarantined: aside, reason: result }, 'catalog file damaged; quarantined');
    }
    return EMPTY_CATALOG;
  }

  get source(): CatalogSource {
    return this.sourceValue;
  }

  /**
   * Durable before it resolves. A failure is a StorageIoError naming the file and the cause, so
   * the statement's answer (500) says what went wrong instead of a generic internal error.
   */
  async save(data: CatalogData): Promise<void> {
    const text = encode(data);
    for (const [name, content] of [[CATALOG_PREV_FILE, this.lastText], [CATALOG_FILE, text]] as const) {
      if (content === undefined) continue;
      const path = join(this.dir, name);
      try {
        await writeFileAtomic(path, content);
      } catch (err) {
        throw new StorageIoError(`cannot save the catalog ${path}: ${(err as Error).message}`, { cause: err });
      }
    }
    this.lastText = text;
  }
}
