/**
 * Progress reporting for the file tools, on stderr (stdout may carry an export). On a TTY a
 * bar redrawn in place (`\r`), at most ten times a second; otherwise plain lines, at most one
 * every two seconds plus one at the end, so logs of scripted runs stay short.
 */
export interface Progress {
  /** Start a phase; `total` in `unit`s, undefined when unknown. */
  phase(name: string, total?: number): void;
  update(done: number, total?: number, detail?: string): void;
  /** End the current line (TTY) and print a final summary line. */
  done(summary: string): void;
}

export interface ProgressOptions {
  readonly unit?: 'bytes' | 'lines' | 'files';
  readonly tty?: boolean;
  readonly write?: (s: string) => void;
  readonly now?: () => number;
  readonly quiet?: boolean;
}

const WIDTH = 30;

export function formatAmount(n: number, unit: string): string {
  if (unit !== 'bytes') return `${n} ${unit}`;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

export function createProgress(opts: ProgressOptions = {}): Progress {
  const write = opts.write ?? ((s: string) => void process.stderr.write(s));
  const tty = opts.tty ?? process.stderr.isTTY === true;
  const now = opts.now ?? Date.now;
  const unit = opts.unit ?? 'bytes';
  const interval = tty ? 100 : 2000;
  let name = '';
  let total: number | undefined;
  let last = -Infinity;
  let drawn = false;

  const line = (done: number, detail?: string) => {
    const amount = total ? `${formatAmount(done, unit)}/${formatAmount(total, unit)}` : formatAmount(done, unit);
    const pct = total ? Math.min(100, Math.floor((done / total) * 100)) : undefined;
    if (!tty) return `${name}: ${amount}${pct === undefined ? '' : ` (${pct}%)`}${detail ? ` ${detail}` : ''}\n`;
    const filled = pct === undefined ? 0 : Math.round((pct / 100) * WIDTH);
    const bar = pct === undefined ? '' : `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(pct).padStart(3)}% `;
    return `\r\x1b[2K${name.padEnd(9)} ${bar}${amount}`;
  };

  return {
    phase(n, t) {
      if (opts.quiet) return;
      if (tty && drawn) write('\n');
      drawn = false;
      name = n;
      total = t;
      last = -Infinity;
      if (!tty) write(`${n}...\n`);
    },
    update(done, t, detail) {
      if (opts.quiet) return;
      if (t !== undefined) total = t;
      const at = now();
      const finished = total !== undefined && done >= total;
      if (at - last < interval && !(finished && tty)) return;
      last = at;
      write(line(done, detail));
      drawn = tty;
    },
    done(summary) {
      if (opts.quiet) return;
      if (tty && drawn) write('\n');
      drawn = false;
      write(`${summary}\n`);
    },
  };
}
