/**
 * Golden query scripts (fixtures/queries/*.test; the format is in fixtures/queries/README.md):
 * parse, replay against an InfluxDB-1.x HTTP endpoint, and print back with new `expect` blocks.
 * Used by the runner test (golden-queries.test.ts, against `strata serve`) and by the recorder
 * (golden-record.ts, against InfluxDB 1.6.7). Test support only: no server code imports it.
 */
import { parseJSON, stringifyJSON } from './golden-json.js';
import type { Json } from './golden-json.js';

export interface Expectation {
  readonly status: number;
  readonly body: Json;
}

export type Step =
  | { readonly kind: 'text'; readonly line: string }
  | { readonly kind: 'write'; readonly line: number; readonly header: string; readonly params: Readonly<Record<string, string>>; readonly body: readonly string[] }
  | { readonly kind: 'dropShard'; readonly line: number; readonly header: string; readonly params: Readonly<Record<string, string>> }
  | {
      readonly kind: 'query';
      readonly line: number;
      readonly header: string;
      readonly params: Readonly<Record<string, string>>;
      readonly q: string;
      expect?: Expectation;
    };

export type QueryStep = Extract<Step, { kind: 'query' }>;

export class ScriptError extends Error {
  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
  }
}

/** `key=value` words up to `q=`, which takes the rest of the line. */
function parseHeader(rest: string): { params: Record<string, string>; q?: string } {
  const params: Record<string, string> = {};
  let s = rest.trim();
  while (s) {
    if (s.startsWith('q=')) return { params, q: s.slice(2) };
    const m = /^(\w+)=(\S*)\s*/.exec(s);
    if (!m) break;
    params[m[1]!] = m[2]!;
    s = s.slice(m[0].length);
  }
  if (s) throw new SyntaxError(`cannot read "${s}"`);
  return { params };
}

/** Reads a script; `file` only labels errors. */
export function parseScript(text: string, file: string): Step[] {
  const lines = text.replace(/\n$/, '').split('\n');
  const steps: Step[] = [];
  let i = 0;
  const block = (): string[] => {
    const out: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '') out.push(lines[i++]!);
    return out;
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const at = i + 1;
    const word = /^([\w-]+)\s*(.*)$/.exec(line);
    if (!word || line.startsWith('#')) {
      steps.push({ kind: 'text', line });
      i++;
      continue;
    }
    let header: ReturnType<typeof parseHeader>;
    try {
      header = parseHeader(word[2]!);
    } catch (e) {
      throw new ScriptError(file, at, (e as Error).message);
    }
    i++;
    if (word[1] === 'write') {
      if (!header.params.db) throw new ScriptError(file, at, 'write needs db=');
      steps.push({ kind: 'write', line: at, header: line, params: header.params, body: block() });
    } else if (word[1] === 'drop-shard') {
      if (!header.params.db || !header.params.rp || !header.params.start) throw new ScriptError(file, at, 'drop-shard needs db=, rp= and start=');
      steps.push({ kind: 'dropShard', line: at, header: line, params: header.params });
    } else if (word[1] === 'query') {
      if (header.q === undefined || !header.params.db) throw new ScriptError(file, at, 'query needs db= and q=');
      const step: QueryStep = { kind: 'query', line: at, header: line, params: header.params, q: header.q };
      const m = /^expect(?:\s+status=(\d+))?\s*$/.exec(lines[i] ?? '');
      if (m) {
        i++;
        const json = block().join('\n');
        try {
          step.expect = { status: m[1] ? Number(m[1]) : 200, body: parseJSON(json) };
        } catch (e) {
          throw new ScriptError(file, i, `expect: ${(e as Error).message}`);
        }
      }
      steps.push(step);
    } else {
      throw new ScriptError(file, at, `unknown directive "${word[1]}" (write, query, expect, drop-shard or # comment)`);
    }
  }
  return steps;
}

/** Prints a script back; query steps carry their (new) expectation. */
export function formatScript(steps: readonly Step[]): string {
  const out: string[] = [];
  for (const s of steps) {
    if (s.kind === 'text') out.push(s.line);
    else if (s.kind === 'write') out.push(s.header, ...s.body);
    else if (s.kind === 'dropShard') out.push(s.header);
    else {
      out.push(s.header);
      if (s.expect) out.push(s.expect.status === 200 ? 'expect' : `expect status=${s.expect.status}`, stringifyJSON(s.expect.body, ' '));
    }
  }
  return out.join('\n') + '\n';
}

/** Every database a script names: each is dropped and created before the script runs. */
export function databasesOf(steps: readonly Step[]): string[] {
  const dbs = new Set<string>();
  for (const s of steps) if (s.kind !== 'text' && s.params.db) dbs.add(s.params.db);
  return [...dbs];
}

const quoteIdent = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

async function post(url: string, body: string, contentType: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': contentType }, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, text: await res.text() };
}

/** One /query request, as the conformance runner sends it: POST form q+db, other params in the URL. */
export async function runQuery(base: string, q: string, params: Readonly<Record<string, string>>): Promise<Expectation> {
  const url = new URL(base + '/query');
  for (const [k, v] of Object.entries(params)) if (k !== 'db') url.searchParams.set(k, v);
  const form = new URLSearchParams({ q });
  if (params.db) form.set('db', params.db);
  const r = await post(url.toString(), form.toString(), 'application/x-www-form-urlencoded');
  let body: Json;
  try {
    body = parseJSON(r.text);
  } catch {
    body = r.text;
  }
  return { status: r.status, body };
}

/**
 * `drop-shard db= rp= start=`: shard ids are the server's own (1.x counts them, Strata hashes
 * them), so the script names the shard by its database, policy and start time (as SHOW SHARDS
 * prints it), and the id is looked up on the server the script runs against.
 */
async function dropShardAt(base: string, step: Extract<Step, { kind: 'dropShard' }>, file: string): Promise<void> {
  const { db, rp, start } = step.params;
  const shards = await runQuery(base, 'SHOW SHARDS', {});
  const body = shards.body as { results?: { series?: { name: string; values?: Json[][] }[] }[] };
  const row = body.results?.[0]?.series?.find((s) => s.name === db)?.values?.find((v) => v[2] === rp && v[4] === start);
  if (!row) throw new ScriptError(file, step.line, `no shard of ${db}.${rp} starts at ${start}`);
  const r = await runQuery(base, `DROP SHARD ${String(row[0])}`, {});
  if (r.status !== 200 || JSON.stringify(r.body).includes('"error"')) throw new ScriptError(file, step.line, `DROP SHARD answered ${r.status}: ${JSON.stringify(r.body)}`);
}

/**
 * Replays a script: fresh databases, writes (which must answer 204), then each query, handing
 * its answer to `onQuery` in script order.
 */
export async function replay(base: string, steps: readonly Step[], file: string, onQuery: (step: QueryStep, got: Expectation) => void): Promise<void> {
  for (const db of databasesOf(steps)) {
    await runQuery(base, `DROP DATABASE ${quoteIdent(db)}`, {});
    const r = await runQuery(base, `CREATE DATABASE ${quoteIdent(db)}`, {});
    if (r.status !== 200) throw new ScriptError(file, 1, `CREATE DATABASE ${db} answered ${r.status}`);
  }
  for (const s of steps) {
    if (s.kind === 'write') {
      const url = new URL(base + '/write');
      for (const [k, v] of Object.entries(s.params)) url.searchParams.set(k, v);
      const r = await post(url.toString(), s.body.join('\n') + '\n', 'text/plain; charset=utf-8');
      if (r.status !== 204) throw new ScriptError(file, s.line, `write answered ${r.status}: ${r.text.trim().slice(0, 300)}`);
    } else if (s.kind === 'dropShard') {
      await dropShardAt(base, s, file);
    } else if (s.kind === 'query') {
      onQuery(s, await runQuery(base, s.q, s.params));
    }
  }
}
