/**
 * 1.x CSV results (`Accept: text/csv` or `application/csv`): a header `name,tags,<columns>`
 * whenever the columns change (with a blank line before a new header), tags as `k=v,k2=v2`
 * (line-protocol escaped, empty values left out),
 * times as integers (ns unless `epoch` says otherwise, never RFC 3339), null as an empty
 * cell; statement errors are left out.
 */
import type { Cell, StatementResult } from '../../ql/index.js';
import { hasTimeColumn } from '../../ql/index.js';
import { formatTimeNs, type Epoch } from './epoch.js';
import { formatFloatF } from './go-float.js';

function quote(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** 1.x prints the tag set's hash key: keys and values escaped as in line protocol, empty values left out. */
function tagsText(tags: Readonly<Record<string, string>>): string {
  const esc = (x: string) => x.replace(/[,= ]/g, (c) => `\\${c}`);
  return Object.keys(tags)
    .sort()
    .filter((k) => tags[k] !== '')
    .map((k) => `${esc(k)}=${esc(tags[k]!)}`)
    .join(',');
}

function cellText(c: Cell): string {
  if (c === null) return '';
  if (typeof c === 'string') return quote(c);
  if (typeof c === 'number') return Number.isFinite(c) ? formatFloatF(c) : '';
  return String(c);
}

export function resultsToCsv(results: readonly StatementResult[], epoch: Epoch | undefined): string {
  let out = '';
  let lastHeader: string | undefined;
  for (const r of results) {
    lastHeader = undefined;
    for (const s of r.series ?? []) {
      const header = ['name', 'tags', ...s.columns].map(quote).join(',');
      if (header !== lastHeader) {
        if (out !== '') out += '\n';
        out += header + '\n';
        lastHeader = header;
      }
      const tags = tagsText(s.tags ?? {});
      const prefix = `${quote(s.name ?? '')},${quote(tags)}`;
      const timeFirst = hasTimeColumn(s);
      for (const row of s.values) {
        const cells = row.map((c, i) =>
          i === 0 && timeFirst && typeof c === 'bigint' ? String(formatTimeNs(c, epoch ?? 'ns')) : s.goIntColumns?.includes(i) ? quote(s.columns[i]!) : cellText(c),
        );
        out += `${prefix},${cells.join(',')}\n`;
      }
    }
  }
  return out;
}

export function errorCsv(message: string): string {
  return `error\n${quote(message).startsWith('"') ? quote(message) : `"${message}"`}\n`;
}
