/**
 * Statements → canonical TimeseriesQL (1.x String() forms; SHOW CONTINUOUS QUERIES shows CQs this
 * way). `redactPasswords` replaces password literals with [REDACTED] (statement summaries) — such
 * text no longer parses, so it is for display only.
 */
import { formatDuration } from './duration.js';
import { quoteIdent, quoteString } from './keywords.js';
import {
  printExpr, printGroupBy, printInt, printMeasurement, printRegex, printSelect, printSortFields, printSources, printWhere,
} from './print.js';
import type { Source } from './nodes.js';
import type { Privilege, Statement, TagKeyFilter } from './statements.js';

export interface PrintOptions {
  readonly redactPasswords?: boolean;
}

const on = (db: string): string => (db === '' ? '' : ' ON ' + quoteIdent(db));
const from = (sources: readonly Source[]): string => (sources.length === 0 ? '' : ' FROM ' + printSources(sources));

function tagKey(f: TagKeyFilter): string {
  switch (f.op) {
    case 'IN': return ' WITH KEY IN (' + f.keys.map(quoteIdent).join(', ') + ')';
    case '=': case '!=': return ` WITH KEY ${f.op} ${quoteIdent(f.key)}`;
    case '=~': case '!~': return ` WITH KEY ${f.op} ${printRegex(f.regex.source)}`;
  }
}

const CARDINALITY_OF = {
  series: 'SERIES', measurement: 'MEASUREMENT', tagKey: 'TAG KEY', tagValues: 'TAG VALUES', fieldKey: 'FIELD KEY',
} as const;

/** The canonical text of one statement. */
/** 1.x's Privilege.String(): ALL prints as `ALL PRIVILEGES`. */
const privilegeText = (p: Privilege): string => (p === 'ALL' ? 'ALL PRIVILEGES' : p);

export function printStatement(s: Statement, options: PrintOptions = {}): string {
  const pw = (p: string): string => (options.redactPasswords === true ? '[REDACTED]' : quoteString(p));
  const q = quoteIdent;
  switch (s.kind) {
    case 'Select': return printSelect(s);
    case 'Delete': return 'DELETE' + from(s.sources) + printWhere(s.condition);
    case 'DropSeries': return 'DROP SERIES' + from(s.sources) + printWhere(s.condition);
    case 'DropMeasurement': return 'DROP MEASUREMENT ' + q(s.name);
    case 'DropShard': return 'DROP SHARD ' + s.id.toString();
    case 'ShowDatabases': return 'SHOW DATABASES';
    case 'ShowMeasurements': {
      const src = s.source === null ? ''
        : s.source.kind === 'Measurement' && s.source.regex !== null ? ' WITH MEASUREMENT =~ ' + printMeasurement(s.source)
          : ' WITH MEASUREMENT = ' + printSources([s.source]);
      return 'SHOW MEASUREMENTS' + on(s.database) + src + printWhere(s.condition) + printSortFields(s.sortFields) +
        printInt('LIMIT', s.limit) + printInt('OFFSET', s.offset);
    }
    case 'ShowTagKeys':
      return 'SHOW TAG KEYS' + on(s.database) + from(s.sources) + printWhere(s.condition) + printSortFields(s.sortFields) +
        printInt('LIMIT', s.limit) + printInt('OFFSET', s.offset) + printInt('SLIMIT', s.slimit) + printInt('SOFFSET', s.soffset);
    case 'ShowTagValues':
      return 'SHOW TAG VALUES' + on(s.database) + from(s.sources) + tagKey(s.tagKey) + printWhere(s.condition) +
        printSortFields(s.sortFields) + printInt('LIMIT', s.limit) + printInt('OFFSET', s.offset);
    case 'ShowFieldKeys':
      return 'SHOW FIELD KEYS' + on(s.database) + from(s.sources) + printSortFields(s.sortFields) +
        printInt('LIMIT', s.limit) + printInt('OFFSET', s.offset);
    case 'ShowSeries':
      return 'SHOW SERIES' + on(s.database) + from(s.sources) + printWhere(s.condition) + printSortFields(s.sortFields) +
        printInt('LIMIT', s.limit) + printInt('OFFSET', s.offset);
    case 'ShowCardinality':
      return `SHOW ${CARDINALITY_OF[s.of]}${s.exact ? ' EXACT' : ''} CARDINALITY` + on(s.database) + from(s.sources) +
        (s.tagKey === null ? '' : tagKey(s.tagKey)) + printWhere(s.condition) + printGroupBy(s.dimensions) +
        printInt('LIMIT', s.limit) + printInt('OFFSET', s.offset);
    case 'ShowRetentionPolicies': return 'SHOW RETENTION POLICIES' + on(s.database);
    case 'ShowUsers': return 'SHOW USERS';
    case 'ShowGrants': return 'SHOW GRANTS' + (s.user === '' ? '' : ' FOR ' + q(s.user));
    case 'ShowContinuousQueries': return 'SHOW CONTINUOUS QUERIES';
    case 'ShowMaterializedViews': return 'SHOW MATERIALIZED VIEWS' + on(s.database);
    case 'ShowQueries': return 'SHOW QUERIES';
    case 'ShowShards': return 'SHOW SHARDS';
    case 'ShowShardGroups': return 'SHOW SHARD GROUPS';
    case 'ShowStats': return 'SHOW STATS' + (s.module === '' ? '' : ' FOR ' + quoteString(s.module));
    case 'ShowDiagnostics': return 'SHOW DIAGNOSTICS' + (s.module === '' ? '' : ' FOR ' + quoteString(s.module));
    case 'ShowSubscriptions': return 'SHOW SUBSCRIPTIONS';
    case 'CreateDatabase': {
      const rp = s.retentionPolicy;
      if (rp === null) return 'CREATE DATABASE ' + q(s.name);
      return 'CREATE DATABASE ' + q(s.name) + ' WITH' +
        (rp.duration === null ? '' : ' DURATION ' + formatDuration(rp.duration)) +
        (rp.replication === null ? '' : ' REPLICATION ' + rp.replication) +
        (rp.shardDuration === null ? '' : ' SHARD DURATION ' + formatDuration(rp.shardDuration)) +
        (rp.name === '' ? '' : ' NAME ' + q(rp.name));
    }
    case 'DropDatabase': return 'DROP DATABASE ' + q(s.name);
    case 'CreateRetentionPolicy':
      return `CREATE RETENTION POLICY ${q(s.name)} ON ${q(s.database)} DURATION ${formatDuration(s.duration)} REPLICATION ${s.replication}` +
        (s.shardDuration === 0n ? '' : ' SHARD DURATION ' + formatDuration(s.shardDuration)) + (s.isDefault ? ' DEFAULT' : '');
    case 'AlterRetentionPolicy':
      return `ALTER RETENTION POLICY ${q(s.name)} ON ${q(s.database)}` +
        (s.duration === null ? '' : ' DURATION ' + formatDuration(s.duration)) +
        (s.replication === null ? '' : ' REPLICATION ' + s.replication) +
        (s.shardDuration === null ? '' : ' SHARD DURATION ' + formatDuration(s.shardDuration)) +
        (s.isDefault ? ' DEFAULT' : '');
    case 'DropRetentionPolicy': return `DROP RETENTION POLICY ${q(s.name)} ON ${q(s.database)}`;
    case 'CreateUser': return `CREATE USER ${q(s.name)} WITH PASSWORD ${pw(s.password)}` + (s.admin ? ' WITH ALL PRIVILEGES' : '');
    case 'DropUser': return 'DROP USER ' + q(s.name);
    case 'SetPassword': return `SET PASSWORD FOR ${q(s.name)} = ${pw(s.password)}`;
    case 'Grant':
      return s.database === null ? `GRANT ALL PRIVILEGES TO ${q(s.user)}` : `GRANT ${privilegeText(s.privilege)} ON ${q(s.database)} TO ${q(s.user)}`;
    case 'Revoke':
      return s.database === null ? `REVOKE ALL PRIVILEGES FROM ${q(s.user)}` : `REVOKE ${privilegeText(s.privilege)} ON ${q(s.database)} FROM ${q(s.user)}`;
    case 'CreateContinuousQuery': {
      const resample = s.resampleEvery === null && s.resampleFor === null ? ''
        : ' RESAMPLE' + (s.resampleEvery === null ? '' : ' EVERY ' + formatDuration(s.resampleEvery)) +
          (s.resampleFor === null ? '' : ' FOR ' + formatDuration(s.resampleFor));
      return `CREATE CONTINUOUS QUERY ${q(s.name)} ON ${q(s.database)}${resample} BEGIN ${printSelect(s.source)} END`;
    }
    case 'DropContinuousQuery': return `DROP CONTINUOUS QUERY ${q(s.name)} ON ${q(s.database)}`;
    case 'CreateMaterializedView':
      return `CREATE MATERIALIZED VIEW ${q(s.name)} ON ${q(s.database)} AS ${printSelect(s.source)}` + (s.backfill ? ' WITH BACKFILL' : '');
    case 'DropMaterializedView': return `DROP MATERIALIZED VIEW ${q(s.name)} ON ${q(s.database)}`;
    case 'CreateSubscription':
      return `CREATE SUBSCRIPTION ${q(s.name)} ON ${q(s.database)}.${q(s.retentionPolicy)} DESTINATIONS ${s.mode} ` +
        s.destinations.map(quoteString).join(', ');
    case 'DropSubscription': return `DROP SUBSCRIPTION ${q(s.name)} ON ${q(s.database)}.${q(s.retentionPolicy)}`;
    case 'KillQuery': return 'KILL QUERY ' + s.queryId.toString() + (s.host === '' ? '' : ' ON ' + q(s.host));
    case 'Explain': return 'EXPLAIN ' + (s.analyze ? 'ANALYZE ' : '') + (s.verbose ? 'VERBOSE ' : '') + printSelect(s.statement);
  }
}

/** Statements joined with `; `. */
export function printQuery(statements: readonly Statement[], options: PrintOptions = {}): string {
  return statements.map((s) => printStatement(s, options)).join('; ');
}

export { printExpr };
