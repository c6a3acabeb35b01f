/**
 * Materialized view definitions as the maintainer and the write path need them: the stored
 * SELECT ... INTO parsed once (cached per catalog version: the catalog replaces its arrays on
 * every change), which writes make a view dirty, and which measurement a view owns.
 *
 * The write path must refuse direct writes to a view's target measurement: see
 * `viewTargetOf` / `isViewTarget` (the maintainer itself writes through `Engine.writePoints`,
 * which the check does not cover).
 */
import type { Catalog, MaterializedViewInfo } from '../../../engine/index.js';
import type { Measurement } from '../../ast/nodes.js';
import { compileRegex } from '../../ast/regex.js';
import type { Matcher } from '../../../engine/index.js';
import { ViewTargetWriteError } from './errors.js';
import { parseWindowedSelect, type WindowedSelect } from './select-window.js';

export interface ParsedView {
  readonly info: MaterializedViewInfo;
  readonly key: string;
  readonly w: WindowedSelect;
  /** True when the view reads a subquery: any write to its database may change it. */
  readonly anySource: boolean;
  readonly sources: readonly { readonly db: string; readonly rp: string; readonly name: string; readonly regex: Matcher | null }[];
  /** Target (db, rp, measurement); measurement null for the `:MEASUREMENT` backreference. */
  readonly target: { readonly db: string; readonly rp: string; readonly name: string | null };
}

export const viewKey = (db: string, name: string): string => `${db}\u0000${name}`;

function parseView(info: MaterializedViewInfo): ParsedView | undefined {
  let w: WindowedSelect;
  try {
    w = parseWindowedSelect(info.queryText);
  } catch {
    return undefined; // counted by the maintainer when it tries to run it
  }
  const target = w.stmt.target!;
  const measurements = w.stmt.sources.filter((s): s is Measurement => s.kind === 'Measurement');
  return {
    info,
    key: viewKey(info.database, info.name),
    w,
    anySource: measurements.length !== w.stmt.sources.length,
    sources: measurements.map((m) => ({
      db: m.database || info.database,
      rp: m.retentionPolicy,
      name: m.name,
      regex: m.regex ? compileRegex(m.regex.source) : null,
    })),
    target: { db: target.database || info.database, rp: target.retentionPolicy, name: target.name },
  };
}

const cache = new WeakMap<readonly MaterializedViewInfo[], readonly ParsedView[]>();

/** Every view of the catalog that parses, in catalog order. */
export function parsedViews(catalog: Catalog): readonly ParsedView[] {
  const infos = catalog.materializedViews();
  let views = cache.get(infos);
  if (!views) {
    views = infos.map(parseView).filter((v): v is ParsedView => v !== undefined);
    cache.set(infos, views);
  }
  return views;
}

/** Can a write to database `db` change what `view` shows at all? */
export function viewReadsDatabase(view: ParsedView, db: string): boolean {
  return view.info.database === db || view.sources.some((s) => s.db === db);
}

/** Does a write to (db, rp, measurement) change what `view` shows? */
export function viewReads(view: ParsedView, db: string, rp: string, measurement: string): boolean {
  if (!viewReadsDatabase(view, db)) return false;
  if (ownsMeasurement(view, db, rp, measurement)) return false; // its own output
  if (view.anySource && view.info.database === db) return true;
  return view.sources.some((s) => s.db === db && (s.rp === '' || s.rp === rp) && (s.regex ? s.regex.test(measurement) : s.name === measurement));
}

function ownsMeasurement(view: ParsedView, db: string, rp: string, measurement: string): boolean {
  const t = view.target;
  if (t.db !== db || (t.rp !== '' && t.rp !== rp)) return false;
  if (t.name !== null) return t.name === measurement;
  // `INTO db.rp.:MEASUREMENT`: the target takes the name of each source measurement.
  return view.sources.some((s) => (s.regex ? s.regex.test(measurement) : s.name === measurement));
}

/**
 * The view whose target is (db, rp, measurement), if any. `rp` undefined or '' means the
 * database's default policy (resolve it as the write does).
 */
export function viewTargetOf(catalog: Catalog, db: string, rp: string | undefined, measurement: string): MaterializedViewInfo | undefined {
  const policy = rp || catalog.database(db)?.defaultRp || '';
  return parsedViews(catalog).find((v) => ownsMeasurement(v, db, policy, measurement))?.info;
}

export function isViewTarget(catalog: Catalog, db: string, rp: string | undefined, measurement: string): boolean {
  return viewTargetOf(catalog, db, rp, measurement) !== undefined;
}

/** Throw the 400 `ViewTargetWriteError` for a direct write to a view's target. */
export function assertNotViewTarget(catalog: Catalog, db: string, rp: string | undefined, measurement: string): void {
  const view = viewTargetOf(catalog, db, rp, measurement);
  if (view) throw new ViewTargetWriteError(db, measurement, view.name);
}
