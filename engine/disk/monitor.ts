/**
 * Disk protection (spec "Disk read-only mode", `[disk]`): every `check_interval_secs` the
 * free space of each data path (WAL, meta, data directories) is sampled.
 *
 *   free < warn_threshold_mb      on a path → one warning when the path crosses the line
 *   free < readonly_threshold_mb  on any path → read-only: `state.readOnly = true`
 *                                   (/write answers 507, /health 503), `onReadOnly()`
 *   every path ≥ readonly threshold again → writes accepted again (`state.readOnly = false`)
 *
 * Read-only only refuses new writes: nothing stored is touched, queries keep working, and
 * flushes and compactions go on (they free WAL space). The monitor clears the flag only if
 * it set it. A path whose statfs fails is logged and ignored for that round (a missing
 * directory must not stop writes).
 *
 * The free-space source is injectable (`statfs` option) so tests can drive it across the
 * thresholds without filling a disk.
 */
import { statfs } from 'node:fs/promises';
import type { EngineLogger } from '../logger.js';

/** Free bytes an unprivileged writer can use on the file system holding `path`. */
export type FreeSpaceSource = (path: string) => Promise<number>;

export const statfsFreeBytes: FreeSpaceSource = async (path) => {
  const s = await statfs(path);
  return s.bavail * s.bsize;
};

const MIB = 1024 * 1024;

export interface DiskMonitorOptions {
  /** Data paths to watch; duplicates are dropped. */
  readonly paths: readonly string[];
  readonly warnThresholdBytes: number;
  readonly readonlyThresholdBytes: number;
  /** The engine state whose `readOnly` flag the monitor drives. */
  readonly state: { readOnly: boolean };
  readonly logger: EngineLogger;
  readonly statfs?: FreeSpaceSource;
  /** Called each time the node enters read-only mode (service_disk_readonly_events_total). */
  readonly onReadOnly?: () => void;
}

/** `[disk]` thresholds in MiB → bytes. */
export function diskThresholds(cfg: { warn_threshold_mb: number; readonly_threshold_mb: number }): {
  warnThresholdBytes: number;
  readonlyThresholdBytes: number;
} {
  return { warnThresholdBytes: cfg.warn_threshold_mb * MIB, readonlyThresholdBytes: cfg.readonly_threshold_mb * MIB };
}

export class DiskMonitor {
  readonly paths: readonly string[];
  readonly #statfs: FreeSpaceSource;
  readonly #warned = new Set<string>();
  #readOnly = false;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;

  constructor(private readonly opts: DiskMonitorOptions) {
    this.paths = [...new Set(opts.paths)];
    this.#statfs = opts.statfs ?? statfsFreeBytes;
  }

  /** True while this monitor holds the node read-only. */
  get readOnly(): boolean {
    return this.#readOnly;
  }

  /** Free bytes per path now (paths whose statfs fails are left out). Changes nothing. */
  async sample(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    await Promise.all(
      this.paths.map(async (path) => {
        try {
          out.set(path, await this.#statfs(path));
        } catch (err) {
          this.opts.logger.warn({ path, err }, 'disk check: cannot read free space');
        }
      }),
    );
    return new Map(this.paths.filter((p) => out.has(p)).map((p) => [p, out.get(p) as number]));
  }

  /** One check: sample, warn, enter or leave read-only mode. Concurrent calls share one run. */
  check(): Promise<void> {
    this.#checking ??= this.#check().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  async #check(): Promise<void> {
    const free = await this.sample();
    const { warnThresholdBytes, readonlyThresholdBytes, logger, state } = this.opts;
    const low: string[] = [];
    for (const [path, bytes] of free) {
      if (bytes < readonlyThresholdBytes) low.push(path);
      if (bytes < warnThresholdBytes) {
        if (!this.#warned.has(path)) logger.warn({ path, freeBytes: bytes, warnThresholdBytes }, 'disk space low');
        this.#warned.add(path);
      } else if (this.#warned.delete(path)) {
        logger.info({ path, freeBytes: bytes }, 'disk space back above the warning threshold');
      }
    }
    if (low.length > 0 && !this.#readOnly) {
      this.#readOnly = true;
      state.readOnly = true;
      logger.error({ paths: low, readonlyThresholdBytes }, 'disk space below the read-only threshold: refusing writes');
      this.opts.onReadOnly?.();
    } else if (low.length === 0 && this.#readOnly) {
      this.#readOnly = false;
      state.readOnly = false;
      logger.info({}, 'disk space recovered: accepting writes again');
    }
  }

  /** Check now, then every `intervalMs` (the timer does not keep the process alive). */
  start(intervalMs: number): Promise<void> {
    this.stop();
    this.#timer = setInterval(() => void this.check(), intervalMs);
    this.#timer.unref();
    return this.check();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
