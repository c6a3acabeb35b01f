/**
 * The catalog side of the SIGKILL torture (crash-torture.ts): one actor beside the writers that
 * creates databases, writes to them, drops their measurement or drops them whole, one request at
 * a time, reusing a few names so that a database is often created again after a drop.
 *
 * After each restart the databases listed must be exactly the acknowledged ones, each holding
 * exactly its acknowledged points, except for the one request in flight at the kill: a pending
 * CREATE or DROP DATABASE may have landed or not (but a database is listed with its data or not
 * at all), a pending write's or DROP MEASUREMENT's points each may be there or not. Why: a kill
 * in the middle of DROP DATABASE (catalog saved, directories half removed) or of a CREATE must
 * neither block start-up nor bring back a dropped incarnation's points under a re-created name.
 */
import { brokenConnection, http, postUnlessGone as post, type Server } from './harness.js';

/** Scratch database names, reused across drops. */
const NAMES = ['ddl0', 'ddl1', 'ddl2'];
const BASE_MS = Date.UTC(2023, 0, 5);
/** Points spread over two 7-day shard groups. */
const SPAN_SLOTS = 14 * 24 * 60;

type DdlPending =
  | { kind: 'create'; db: string }
  | { kind: 'drop-database'; db: string }
  | { kind: 'drop-measurement'; db: string }
  | { kind: 'write'; db: string; lines: ReadonlyMap<number, number> }
  | null;

export interface DdlStats {
  creates: number;
  dropDatabases: number;
  dropMeasurements: number;
  points: number;
}

export class DdlActor {
  /** Acknowledged databases: time (ms) -> value of measurement `m`. */
  private live = new Map<string, Map<number, number>>();
  private pending: DdlPending = null;
  private seq = 0;
  readonly stats: DdlStats = { creates: 0, dropDatabases: 0, dropMeasurements: 0, points: 0 };

  constructor(private readonly rand: () => number) {}

  /** Issues requests until `killed()`; a refused or failed request goes to `failures`. */
  async run(port: number, round: number, killed: () => boolean, failures: string[]): Promise<void> {
    while (!killed()) {
      const free = NAMES.filter((n) => !this.live.has(n));
      const names = [...this.live.keys()];
      const r = this.rand();
      let ok: boolean;
      if (names.length === 0 || (r < 0.15 && free.length > 0)) ok = await this.create(port, free[Math.floor(this.rand() * free.length)]!, killed, failures);
      else {
        const db = names[Math.floor(this.rand() * names.length)]!;
        if (r < 0.22) ok = await this.dropDatabase(port, db, killed, failures);
        else if (r < 0.3 && this.live.get(db)!.size > 0) ok = await this.dropMeasurement(port, db, killed, failures);
        else ok = await this.write(port, db, round, killed, failures);
      }
      if (!ok) return;
    }
  }

  private async create(port: number, db: string, killed: () => boolean, failures: string[]): Promise<boolean> {
    this.pending = { kind: 'create', db };
    if (!(await this.statement(port, `CREATE DATABASE ${db}`, killed, failures))) return false;
    this.live.set(db, new Map());
    this.stats.creates++;
    return true;
  }

  private async dropDatabase(port: number, db: string, killed: () => boolean, failures: string[]): Promise<boolean> {
    this.pending = { kind: 'drop-database', db };
    if (!(await this.statement(port, `DROP DATABASE ${db}`, killed, failures))) return false;
    this.live.delete(db);
    this.stats.dropDatabases++;
    return true;
  }

  private async dropMeasurement(port: number, db: string, killed: () => boolean, failures: string[]): Promise<boolean> {
    this.pending = { kind: 'drop-measurement', db };
    if (!(await this.statement(port, `DROP MEASUREMENT m`, killed, failures, db))) return false;
    this.live.set(db, new Map());
    this.stats.dropMeasurements++;
    return true;
  }

  private async write(port: number, db: string, round: number, killed: () => boolean, failures: string[]): Promise<boolean> {
    this.seq++;
    const lines = new Map<number, number>();
    const n = 1 + Math.floor(this.rand() * 50);
    for (let k = 0; k < n; k++) lines.set(BASE_MS + Math.floor(this.rand() * SPAN_SLOTS) * 60_000, round * 100_000_000 + (this.seq % 100_000) * 100 + k);
    this.pending = { kind: 'write', db, lines };
    const body = [...lines].map(([t, v]) => `m,c=x v=${v}i ${t}`).join('\n');
    const res = await post(port, `/write?db=${db}&precision=ms`, body);
    if (res.status === 0) {
      brokenConnection('ddl', killed, failures);
      return false;
    }
    if (res.status !== 204) {
      failures.push(`ddl: /write to ${db} answered ${res.status} ${res.body}`);
      return false;
    }
    const points = this.live.get(db)!;
    for (const [t, v] of lines) points.set(t, v);
    this.pending = null;
    this.stats.points += lines.size;
    return true;
  }

  /** One statement; true when answered without error (then the caller settles the model and `pending` is cleared). */
  private async statement(port: number, q: string, killed: () => boolean, failures: string[], db?: string): Promise<boolean> {
    const res = await post(port, `/query?${db ? `db=${db}&` : ''}q=${encodeURIComponent(q)}`, '');
    if (res.status === 0) {
      brokenConnection('ddl', killed, failures);
      return false;
    }
    if (res.status !== 200 || res.body.includes('"error"')) {
      failures.push(`ddl: ${q} answered ${res.status} ${res.body}`);
      return false;
    }
    this.pending = null;
    return true;
  }

  /** Checks the restarted server against the model (see the header), then takes what it holds as the model. */
  async verify(srv: Server, round: number): Promise<string[]> {
    const problems: string[] = [];
    const p = this.pending;
    const listed = new Set((await rowsOf(srv, 'SHOW DATABASES', undefined, round)).map((r) => String(r[0])).filter((n) => NAMES.includes(n)));
    const next = new Map<string, Map<number, number>>();
    for (const db of new Set([...this.live.keys(), ...listed])) {
      const inFlight = p !== null && p.db === db;
      const acked = this.live.get(db);
      if (!listed.has(db)) {
        if (acked && !(inFlight && p.kind === 'drop-database')) problems.push(`database ${db} acknowledged but not listed`);
        continue;
      }
      if (!acked && !(inFlight && p.kind === 'create')) {
        problems.push(`database ${db} listed but ${p?.kind === 'drop-database' && inFlight ? 'its drop was in flight and it came back with' : 'not acknowledged'}`);
      }
      const stored = new Map<number, number>();
      for (const r of await rowsOf(srv, 'SELECT v FROM m', db, round)) stored.set(r[0] as number, r[1] as number);
      const model = acked ?? new Map<number, number>();
      for (const t of new Set([...model.keys(), ...stored.keys()])) {
        const v = stored.get(t);
        if (v === model.get(t)) continue;
        if (inFlight && p.kind === 'write' && p.lines.get(t) === v) continue;
        if (inFlight && p.kind === 'drop-measurement' && v === undefined) continue;
        problems.push(`${db} t=${new Date(t).toISOString()}: stored ${v ?? 'nothing'}, acknowledged ${model.get(t) ?? 'nothing'} (pending ${p?.kind ?? 'none'} on ${p?.db ?? '-'})`);
      }
      next.set(db, stored);
    }
    if (problems.length === 0) {
      this.live = next;
      this.pending = null;
    }
    return problems;
  }
}

async function rowsOf(srv: Server, q: string, db: string | undefined, round: number): Promise<unknown[][]> {
  const res = await http(srv.port, 'GET', `/query?epoch=ms&${db ? `db=${db}&` : ''}q=${encodeURIComponent(q)}`, undefined, {}, 60_000);
  if (res.status !== 200) throw new Error(`round ${round} ddl: ${q} answered ${res.status} ${res.body}`);
  const parsed = JSON.parse(res.body) as { results: { error?: string; series?: { values: unknown[][] }[] }[] };
  if (parsed.results[0]?.error) throw new Error(`round ${round} ddl: ${q}: ${parsed.results[0].error}`);
  return parsed.results[0]?.series?.[0]?.values ?? [];
}
