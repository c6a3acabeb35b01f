/**
 * The catalog side of the SIGKILL torture (crash-torture.ts): one actor beside the writers that
 * creates databases and a second retention policy, writes to them, drops a measurement, a
 * policy or a whole database, one request at a time, reusing a few names so that a database or
 * a policy is often created again after its drop.
 *
 * After each restart the databases and policies listed must be exactly the acknowledged ones,
 * each holding exactly its acknowledged points, except for the one request in flight at the
 * kill: a pending CREATE or DROP may have landed or not. A database is listed with its data or
 * not at all; a pending DROP RETENTION POLICY or DROP MEASUREMENT may have hidden each point of
 * its target or not (1.x deletes a policy's data before it forgets the policy); a pending
 * write's points each may be there or not. Why: a kill in the middle of a drop, or right after
 * the name is created again, must neither block start-up nor bring back a dropped
 * incarnation's points.
 *
 * The actor also alters policies (which one is the default, the second one's duration between
 * infinite and 1000 weeks) and creates and drops a continuous query: after a restart each
 * database's default policy, the second policy's duration and its continuous queries must be
 * the acknowledged ones, or for the one pending request, the state before or after it.
 */
import { brokenConnection, http, postUnlessGone as post, serverRows, type Server } from './harness.js';

/** Scratch database names, reused across drops. */
const NAMES = ['ddl0', 'ddl1', 'ddl2'];
const DEFAULT_RP = 'autogen';
/** The second policy, created and dropped again and again. */
const SECOND_RP = 'r2';
const BASE_MS = Date.UTC(2023, 0, 5);
/** SHOW RETENTION POLICIES' duration of the second policy: infinite, or 1000 weeks (longer than the points are old). */
const DURATIONS = { inf: '0s', long: '168000h0m0s' } as const;
type Duration = keyof typeof DURATIONS;
/** The one continuous query name (counts `m` into `m_cq` by hour; its rows are not checked). */
const CQ = 'cq1';
/** Points spread over two 7-day shard groups. */
const SPAN_SLOTS = 14 * 24 * 60;

type Points = Map<number, number>;
/** Per policy name, time (ms) -> value of measurement `m`. */
type Policies = Map<string, Points>;

type DdlPending =
  | { kind: 'create-database' | 'drop-database'; db: string }
  | { kind: 'create-rp' | 'drop-rp'; db: string; rp: string }
  | { kind: 'drop-measurement'; db: string }
  | { kind: 'alter-default'; db: string; rp: string }
  | { kind: 'alter-duration'; db: string; rp: string; duration: Duration }
  | { kind: 'create-cq' | 'drop-cq'; db: string }
  | { kind: 'write'; db: string; rp: string; lines: ReadonlyMap<number, number> }
  | null;

export interface DdlStats {
  creates: number;
  dropDatabases: number;
  dropMeasurements: number;
  policiesCreated: number;
  policiesDropped: number;
  alters: number;
  cqs: number;
  points: number;
}

/** Per database, the acknowledged settings beside its points. */
interface Settings {
  defaultRp: string;
  /** Duration of SECOND_RP while it exists. */
  second: Duration;
  cq: boolean;
}

export class DdlActor {
  /** Acknowledged databases and their policies. */
  private live = new Map<string, Policies>();
  private settings = new Map<string, Settings>();
  private pending: DdlPending = null;
  private seq = 0;
  readonly stats: DdlStats = { creates: 0, dropDatabases: 0, dropMeasurements: 0, policiesCreated: 0, policiesDropped: 0, alters: 0, cqs: 0, points: 0 };

  constructor(
    private readonly rand: () => number,
    /** Each answered request (for hunting: crash-torture-run.js --trace). */
    private readonly trace?: (line: string) => void,
  ) {}

  /** Issues requests until `killed()`; a refused or failed request goes to `failures`. */
  async run(port: number, round: number, killed: () => boolean, failures: string[]): Promise<void> {
    const act = (q: string, db?: string) => this.statement(port, q, killed, failures, db);
    while (!killed()) {
      const free = NAMES.filter((n) => !this.live.has(n));
      const names = [...this.live.keys()];
      const r = this.rand();
      let ok: boolean;
      if (names.length === 0 || (r < 0.12 && free.length > 0)) {
        const db = free[Math.floor(this.rand() * free.length)]!;
        this.pending = { kind: 'create-database', db };
        if ((ok = await act(`CREATE DATABASE ${db}`))) {
          this.live.set(db, new Map([[DEFAULT_RP, new Map()]]));
          this.settings.set(db, { defaultRp: DEFAULT_RP, second: 'inf', cq: false });
          this.stats.creates++;
        }
      } else {
        const db = names[Math.floor(this.rand() * names.length)]!;
        const policies = this.live.get(db)!;
        const hasSecond = policies.has(SECOND_RP);
        const set = this.settings.get(db)!;
        if (r < 0.18) {
          this.pending = { kind: 'drop-database', db };
          if ((ok = await act(`DROP DATABASE ${db}`))) {
            this.live.delete(db);
            this.settings.delete(db);
            this.stats.dropDatabases++;
          }
        } else if (r < 0.24 && !hasSecond) {
          this.pending = { kind: 'create-rp', db, rp: SECOND_RP };
          if ((ok = await act(`CREATE RETENTION POLICY ${SECOND_RP} ON ${db} DURATION 0s REPLICATION 1`))) {
            policies.set(SECOND_RP, new Map());
            set.second = 'inf';
            this.stats.policiesCreated++;
          }
        } else if (r < 0.3 && hasSecond && set.defaultRp !== SECOND_RP) {
          this.pending = { kind: 'drop-rp', db, rp: SECOND_RP };
          if ((ok = await act(`DROP RETENTION POLICY ${SECOND_RP} ON ${db}`))) {
            policies.delete(SECOND_RP);
            this.stats.policiesDropped++;
          }
        } else if (r < 0.36 && [...policies.values()].some((p) => p.size > 0)) {
          this.pending = { kind: 'drop-measurement', db };
          if ((ok = await act('DROP MEASUREMENT m', db))) {
            for (const rp of policies.keys()) policies.set(rp, new Map());
            this.stats.dropMeasurements++;
          }
        } else if (r < 0.4 && hasSecond) {
          ok = await this.alter(act, db, set);
        } else if (r < 0.43) {
          this.pending = { kind: set.cq ? 'drop-cq' : 'create-cq', db };
          const q = set.cq ? `DROP CONTINUOUS QUERY ${CQ} ON ${db}` : `CREATE CONTINUOUS QUERY ${CQ} ON ${db} BEGIN SELECT count(v) INTO m_cq FROM m GROUP BY time(1h) END`;
          if ((ok = await act(q))) {
            set.cq = !set.cq;
            this.stats.cqs++;
          }
        } else {
          const rp = hasSecond && this.rand() < 0.4 ? SECOND_RP : DEFAULT_RP;
          ok = await this.write(port, db, rp, round, killed, failures);
        }
      }
      if (!ok) return;
    }
  }

  /** Make the other policy the default, or flip the second one's duration. */
  private async alter(act: (q: string) => Promise<boolean>, db: string, set: Settings): Promise<boolean> {
    let ok: boolean;
    if (this.rand() < 0.5) {
      const rp = set.defaultRp === DEFAULT_RP ? SECOND_RP : DEFAULT_RP;
      this.pending = { kind: 'alter-default', db, rp };
      if ((ok = await act(`ALTER RETENTION POLICY ${rp} ON ${db} DEFAULT`))) set.defaultRp = rp;
    } else {
      const duration: Duration = set.second === 'inf' ? 'long' : 'inf';
      this.pending = { kind: 'alter-duration', db, rp: SECOND_RP, duration };
      if ((ok = await act(`ALTER RETENTION POLICY ${SECOND_RP} ON ${db} DURATION ${duration === 'inf' ? 'INF' : '1000w'}`))) set.second = duration;
    }
    if (ok) this.stats.alters++;
    return ok;
  }

  private async write(port: number, db: string, rp: string, round: number, killed: () => boolean, failures: string[]): Promise<boolean> {
    this.seq++;
    const lines = new Map<number, number>();
    const n = 1 + Math.floor(this.rand() * 50);
    for (let k = 0; k < n; k++) lines.set(BASE_MS + Math.floor(this.rand() * SPAN_SLOTS) * 60_000, round * 100_000_000 + (this.seq % 100_000) * 100 + k);
    this.pending = { kind: 'write', db, rp, lines };
    // Times are whole minutes: minute precision every third write, the others in ms.
    const [precision, unitMs] = this.seq % 3 === 0 ? ['m', 60_000] : ['ms', 1];
    const body = [...lines].map(([t, v]) => `m,c=x v=${v}i ${t / unitMs}`).join('\n');
    const res = await post(port, `/write?db=${db}&rp=${rp}&precision=${precision}`, body);
    if (res.status === 0) {
      brokenConnection('ddl', killed, failures);
      return false;
    }
    if (res.status !== 204) {
      failures.push(`ddl: /write to ${db}.${rp} answered ${res.status} ${res.body}`);
      return false;
    }
    const points = this.live.get(db)!.get(rp)!;
    for (const [t, v] of lines) points.set(t, v);
    this.trace?.(`${new Date().toISOString()} ${db}.${rp}: write of ${lines.size} points, values ${Math.min(...lines.values())}..${Math.max(...lines.values())}`);
    this.pending = null;
    this.stats.points += lines.size;
    return true;
  }

  /** One statement; true when answered without error (the caller then settles the model, and `pending` is cleared). */
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
    this.trace?.(`${new Date().toISOString()} ${db ?? '-'}: ${q}`);
    this.pending = null;
    return true;
  }

  /** Checks the restarted server against the model (see the header), then takes what it holds as the model. */
  async verify(srv: Server, round: number): Promise<string[]> {
    const problems: string[] = [];
    const p = this.pending;
    const listed = new Set((await serverRows(srv, 'SHOW DATABASES', undefined, `round ${round} ddl`)).map((r) => String(r[0])).filter((n) => NAMES.includes(n)));
    const next = new Map<string, Policies>();
    const nextSettings = new Map<string, Settings>();
    const cqs = await continuousQueries(srv, round);
    for (const db of new Set([...this.live.keys(), ...listed])) {
      const onDb = p !== null && p.db === db ? p : null;
      const acked = this.live.get(db);
      if (!listed.has(db)) {
        if (acked && onDb?.kind !== 'drop-database') problems.push(`database ${db} acknowledged but not listed`);
        continue;
      }
      if (!acked && onDb?.kind !== 'create-database') problems.push(`database ${db} listed but not acknowledged (pending ${p?.kind ?? 'none'})`);
      const rpRows = await serverRows(srv, `SHOW RETENTION POLICIES ON ${db}`, undefined, `round ${round} ddl`);
      const rps = new Set(rpRows.map((r) => String(r[0])));
      const policies: Policies = new Map();
      for (const rp of new Set([...(acked?.keys() ?? []), ...rps])) {
        const onRp = onDb && 'rp' in onDb && onDb.rp === rp ? onDb : null;
        const model = acked?.get(rp);
        if (!rps.has(rp)) {
          if (model && onRp?.kind !== 'drop-rp') problems.push(`policy ${db}.${rp} acknowledged but not listed`);
          continue;
        }
        if (!model && onRp?.kind !== 'create-rp' && !(rp === DEFAULT_RP && onDb?.kind === 'create-database')) {
          problems.push(`policy ${db}.${rp} listed but not acknowledged (pending ${p?.kind ?? 'none'})`);
        }
        const stored = new Map<number, number>();
        for (const r of await serverRows(srv, `SELECT v FROM "${db}"."${rp}".m`, db, `round ${round} ddl`)) stored.set(r[0] as number, r[1] as number);
        const expected = model ?? new Map<number, number>();
        for (const t of new Set([...expected.keys(), ...stored.keys()])) {
          const v = stored.get(t);
          if (v === expected.get(t)) continue;
          if (onRp?.kind === 'write' && onRp.lines.get(t) === v) continue;
          if (v === undefined && (onDb?.kind === 'drop-measurement' || onRp?.kind === 'drop-rp')) continue;
          problems.push(`${db}.${rp} t=${new Date(t).toISOString()}: stored ${v ?? 'nothing'}, acknowledged ${expected.get(t) ?? 'nothing'} (pending ${p?.kind ?? 'none'} on ${p?.db ?? '-'})`);
        }
        policies.set(rp, stored);
      }
      next.set(db, policies);
      const stored: Settings = {
        defaultRp: String(rpRows.find((r) => r[4] === true)?.[0]),
        second: rpRows.find((r) => r[0] === SECOND_RP)?.[1] === DURATIONS.long ? 'long' : 'inf',
        cq: cqs.get(db)?.includes(CQ) ?? false,
      };
      problems.push(...this.settingsProblems(db, stored, rpRows, p));
      nextSettings.set(db, stored);
    }
    if (problems.length === 0) {
      this.live = next;
      this.settings = nextSettings;
      this.pending = null;
    }
    return problems;
  }

  /** A listed database's default policy, second policy's duration and continuous query against the model (or the pending request's outcome). */
  private settingsProblems(db: string, stored: Settings, rpRows: unknown[][], p: DdlPending): string[] {
    const acked = this.settings.get(db) ?? { defaultRp: DEFAULT_RP, second: 'inf', cq: false };
    const onDb = p !== null && p.db === db ? p : null;
    const out: string[] = [];
    const pending = `(pending ${p?.kind ?? 'none'} on ${p?.db ?? '-'})`;
    if (stored.defaultRp !== acked.defaultRp && !(onDb?.kind === 'alter-default' && onDb.rp === stored.defaultRp)) {
      out.push(`${db}: default policy ${stored.defaultRp}, acknowledged ${acked.defaultRp} ${pending}`);
    }
    const second = rpRows.find((r) => r[0] === SECOND_RP);
    if (second && !['0s', DURATIONS.long].includes(String(second[1]))) out.push(`${db}.${SECOND_RP}: duration ${String(second[1])} ${pending}`);
    if (second && stored.second !== acked.second && !(onDb?.kind === 'alter-duration' && onDb.duration === stored.second) && onDb?.kind !== 'create-rp') {
      out.push(`${db}.${SECOND_RP}: duration ${stored.second}, acknowledged ${acked.second} ${pending}`);
    }
    if (stored.cq !== acked.cq && onDb?.kind !== 'create-cq' && onDb?.kind !== 'drop-cq') out.push(`${db}: continuous query ${stored.cq ? 'listed' : 'missing'}, acknowledged ${acked.cq ? 'created' : 'dropped'} ${pending}`);
    return out;
  }
}

/** SHOW CONTINUOUS QUERIES: per database, the names of its continuous queries. */
async function continuousQueries(srv: Server, round: number): Promise<Map<string, string[]>> {
  const res = await http(srv.port, 'GET', `/query?q=${encodeURIComponent('SHOW CONTINUOUS QUERIES')}`, undefined, {}, 60_000);
  if (res.status !== 200) throw new Error(`round ${round} ddl: SHOW CONTINUOUS QUERIES answered ${res.status} ${res.body}`);
  const answer = JSON.parse(res.body) as { results: { series?: { name: string; values?: unknown[][] }[] }[] };
  return new Map((answer.results[0]?.series ?? []).map((s) => [s.name, (s.values ?? []).map((r) => String(r[0]))]));
}
