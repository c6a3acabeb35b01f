/**
 * The service's Prometheus metrics (spec "Metric catalog (Prometheus)"), one prom-client
 * Registry per process (not the global one, so tests can run several servers side by side).
 *
 * Every name of the catalog is registered with its exact type, also those of features a
 * single node does not run (replication, cluster, shards): they stay at zero so dashboards
 * and alerts written for a cluster find the series. Labels are bounded by construction: no
 * query text, no database, user or measurement names. `{path}` has one value per configured
 * data path, `{mode}` two values, `{outcome}`/`{kind}` three; `{peer}`/`{reason}` only ever
 * get values in cluster mode (none here).
 *
 * Values that live elsewhere (WAL sequence, free disk space, uptime) are read at scrape time
 * through collect callbacks; see `bindSources`. Node process metrics come from
 * prom-client's collectDefaultMetrics.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CacheMemory, RetentionCounters } from '../../engine/index.js';
import { HttpdCounters, PointsWriterCounters } from './module-counters.js';
import { PlainCounter } from './plain-counter.js';
import { PlainHistogram } from './plain-histogram.js';

export type ReplicationMode = 'async' | 'sync_quorum';

export interface ServiceMetricsOptions {
  /** `[cluster.replication] mode`: the `service_replication_mode{mode}` series set to 1. */
  readonly replicationMode?: ReplicationMode;
  /** Register Node process metrics (default true). */
  readonly processMetrics?: boolean;
  /** Clock for `service_uptime_seconds` (tests). */
  readonly now?: () => number;
}

/** Scrape-time sources owned by the composition root (engine, disk monitor). */
export interface MetricSources {
  /** Last WAL sequence number assigned. */
  walLastSequence?(): bigint | number;
  /** Free bytes per configured data path (one entry per path). */
  diskFree?(): Promise<ReadonlyMap<string, number>> | ReadonlyMap<string, number>;
  /** The engine caches' memory. */
  cacheMemory?(): CacheMemory;
}

/** What a flush reports (engine FlushObserver.onFlush argument). */
export interface FlushReport {
  readonly points: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly error?: unknown;
}

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const FLUSH_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** 64 B to 64 MiB in powers of 4 (the body cap defaults to 25 MiB). */
const PAYLOAD_BUCKETS = [64, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216, 67_108_864];
const ATTEMPT_BUCKETS = [1, 2, 3, 5, 8];

export const REPLICATION_MODES: readonly ReplicationMode[] = ['async', 'sync_quorum'];
const SYNC_ACK_OUTCOMES = ['ok', 'timeout', 'error'] as const;
const SCATTER_KINDS = ['query', 'metadata', 'write'] as const;

export class ServiceMetrics {
  readonly registry = new Registry();
  #sources: MetricSources = {};

  // HTTP: /write and /query
  readonly writeRequests = this.#counter('service_write_requests_total', 'Write requests received on /write.');
  readonly writeErrors = this.#counter('service_write_errors_total', 'Write requests answered with an error status.');
  readonly writePayloadBytes = this.#histogram('service_write_payload_bytes', 'Write request body size in bytes, after decompression.', PAYLOAD_BUCKETS);
  readonly writeDuration = new PlainHistogram('service_write_duration_seconds', 'Time to answer a write request.', LATENCY_BUCKETS, this.registry);
  readonly queryRequests = new PlainCounter('service_query_requests_total', 'Query requests received on /query.', this.registry);
  readonly queryErrors = new PlainCounter('service_query_errors_total', 'Query requests answered with an error status or with a failed statement.', this.registry);
  readonly queryDuration = new PlainHistogram('service_query_duration_seconds', 'Time to answer a query request.', LATENCY_BUCKETS, this.registry);
  /** Incremented by the rate limiter for each request it answers with 429. */
  readonly rateLimitDenied = this.#counter('service_rate_limit_denied_total', 'Requests rejected with 429 by the rate limiter.');

  /** 1.x's SHOW STATS httpd and write modules (module-counters.ts). */
  readonly httpd = new HttpdCounters();
  readonly pointsWriter = new PointsWriterCounters();

  // Storage
  readonly ingestionPoints = this.#counter('service_ingestion_points_total', 'Points stored by /write.');
  readonly flushRuns = this.#counter('service_flush_runs_total', 'Cache flushes to TSM run.');
  readonly flushErrors = this.#counter('service_flush_errors_total', 'Cache flushes that failed.');
  readonly flushPoints = this.#counter('service_flush_points_total', 'Points written to TSM by flushes.');
  readonly flushDuration = this.#histogram('service_flush_duration_seconds', 'Duration of a cache flush.', FLUSH_BUCKETS);
  readonly walLastSequence = new Gauge({
    name: 'service_wal_last_sequence',
    help: 'Last WAL sequence number assigned.',
    registers: [this.registry],
    collect: () => {
      const seq = this.#sources.walLastSequence?.();
      if (seq !== undefined) this.walLastSequence.set(Number(seq));
    },
  });
  readonly diskFree: Gauge<'path'> = new Gauge({
    name: 'service_disk_free_bytes',
    help: 'Free bytes available on the file system of each configured data path.',
    labelNames: ['path'],
    registers: [this.registry],
    collect: async () => {
      const free = await this.#sources.diskFree?.();
      if (!free) return;
      this.diskFree.reset();
      for (const [path, bytes] of free) this.diskFree.set({ path }, bytes);
    },
  });
  // Not in the spec's catalog: what an operator sizing [flush] cache_snapshot_bytes reads.
  readonly cacheBytes = this.#cacheGauge(
    'service_cache_bytes',
    'Bytes held by the in-memory caches, active and being flushed, as the snapshot size counts them.',
    (m) => m.cachedBytes,
  );
  readonly cacheColumnBytes = this.#cacheGauge('service_cache_column_bytes', "Shared memory of the caches' typed columns, in use or kept for the next caches.", (m) => m.columnBytes);
  readonly diskReadonlyEvents = this.#counter('service_disk_readonly_events_total', 'Times the node entered disk read-only mode.');

  // Replication (cluster mode only: zero on a single node)
  readonly replicationWrites = this.#counter('service_replication_writes_total', 'Writes replicated to peers.');
  readonly replicationErrors = this.#counter('service_replication_errors_total', 'Replication attempts that failed.');
  readonly replicationDuration = this.#histogram('service_replication_duration_seconds', 'Duration of a replication batch.', LATENCY_BUCKETS);
  readonly replicationMutations = this.#counter('service_replication_mutations_total', 'Metadata mutations replicated to peers.');
  readonly replicationMode: Gauge<'mode'> = this.#gauge('service_replication_mode', 'Configured replication mode (1) and the other mode (0).', ['mode']);
  readonly replicationSyncAcks: Counter<'outcome'> = this.#counter('service_replication_sync_acks_total', 'sync_quorum acknowledgement rounds by outcome.', ['outcome']);
  readonly replicationSyncDuration = this.#histogram('service_replication_sync_duration_seconds', 'Time to reach the sync_quorum acknowledgements.', LATENCY_BUCKETS);
  readonly replicationSyncPeerAck: Histogram<'peer'> = this.#histogram('service_replication_sync_peer_ack_seconds', 'Acknowledgement latency per peer.', LATENCY_BUCKETS, ['peer']);
  readonly replicationSyncRequiredAcks = this.#gauge('service_replication_sync_required_acks', 'Peer acknowledgements a sync_quorum write needs.');
  readonly replicationSyncApplyReceived = this.#counter('service_replication_sync_apply_received_total', 'sync_quorum apply requests received from a coordinator.');
  readonly replicationSyncApplyErrors = this.#counter('service_replication_sync_apply_errors_total', 'sync_quorum apply requests that failed.');

  // Cluster
  readonly clusterNodeState = this.#gauge('service_cluster_node_state', 'Cluster node state, 0 to 5 (0 on a single node).');
  readonly clusterPeersActive = this.#gauge('service_cluster_peers_active', 'Active cluster peers.');
  readonly drain = this.#counter('service_drain_total', 'Node drains started.');
  readonly uptime: Gauge = new Gauge({
    name: 'service_uptime_seconds',
    help: 'Seconds since the service started.',
    registers: [this.registry],
    collect: () => this.uptime.set((this.now() - this.startedAt) / 1000),
  });

  // Sharded regions (experimental, cluster mode only)
  readonly shardRegions = this.#gauge('service_shard_regions', 'Regions hosted by this node.');
  readonly shardSplits = this.#counter('service_shard_splits_total', 'Region splits.');
  readonly shardMerges = this.#counter('service_shard_merges_total', 'Region merges.');
  readonly shardRebalances = this.#counter('service_shard_rebalances_total', 'Region rebalances.');
  readonly shardTransfers = this.#counter('service_shard_transfers_total', 'Region transfers.');
  readonly shardTransferBytes = this.#counter('service_shard_transfer_bytes', 'Bytes sent by region transfers.');
  readonly shardForwardedWritesApplied = this.#counter('service_shard_forwarded_writes_applied_total', 'Forwarded region writes applied.');
  readonly shardDeleteApplied = this.#counter('service_shard_delete_applied_total', 'Region deletes applied.');
  readonly shardRegionLagWalSeq = this.#gauge('service_shard_region_lag_wal_seq', 'WAL sequences a region replica is behind.');
  readonly shardQueryRegionsTotal = this.#gauge('service_shard_query_regions_total', 'Regions a query could touch.');
  readonly shardQueryRegionsSelected = this.#gauge('service_shard_query_regions_selected', 'Regions a query touched after pruning.');
  readonly shardScatterFallback: Counter<'kind'> = this.#counter('service_shard_scatter_fallback_total', 'Scatter fallbacks by kind.', ['kind']);
  readonly shardScatterPeerAttempts = this.#histogram('service_shard_scatter_peer_attempts', 'Peers tried per scatter request.', ATTEMPT_BUCKETS);
  readonly shardPrimaryFailover = this.#counter('service_shard_primary_failover_total', 'Region primary failovers.');
  readonly shardPrimaryFailoverSkipped: Counter<'reason'> = this.#counter('service_shard_primary_failover_skipped_total', 'Region primary failovers skipped, by reason.', ['reason']);
  readonly shardMvBackfillRegions = this.#counter('service_shard_mv_backfill_regions_total', 'Regions backfilled for materialized views.');
  readonly shardTransferParked = this.#counter('service_shard_transfer_parked_total', 'Region transfers parked.');

  readonly startedAt: number;
  private readonly now: () => number;

  constructor(options: ServiceMetricsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    const mode = options.replicationMode ?? 'async';
    for (const m of REPLICATION_MODES) this.replicationMode.set({ mode: m }, m === mode ? 1 : 0);
    // Known label values start at zero so the series exist before the first event.
    for (const outcome of SYNC_ACK_OUTCOMES) this.replicationSyncAcks.inc({ outcome }, 0);
    for (const kind of SCATTER_KINDS) this.shardScatterFallback.inc({ kind }, 0);
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** Attach the scrape-time sources (composition root, once the engine is open). */
  bindSources(sources: MetricSources): void {
    this.#sources = { ...this.#sources, ...sources };
  }

  /**
   * Retention enforcement counters (not in the spec's catalog; issue: "retention service ...
   * with metrics"). Read from the service at scrape time.
   */
  bindRetention(read: () => RetentionCounters | undefined): void {
    const counter = (name: string, help: string, value: (c: RetentionCounters) => number) =>
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          const c = read();
          this.reset();
          if (c) this.inc(value(c));
        },
      });
    counter('service_retention_runs_total', 'Retention enforcement passes', (c) => c.runs);
    counter('service_retention_shards_dropped_total', 'Shards dropped because their whole range expired', (c) => c.shardsDropped);
    counter('service_retention_tombstones_total', 'Trim tombstones written for shards straddling the cutoff', (c) => c.tombstonesWritten);
    counter('service_retention_errors_total', 'Retention passes that failed', (c) => c.errors);
  }

  /** Pass to Engine.open() as its FlushObserver. */
  readonly flushObserver = {
    onFlush: (r: FlushReport): void => {
      this.flushRuns.inc();
      this.flushDuration.observe(r.seconds);
      if (r.error !== undefined) this.flushErrors.inc();
      else this.flushPoints.inc(r.points);
    },
  };

  /** The text exposition format and its Content-Type. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  /** A gauge read from the engine's cache memory at scrape time. */
  #cacheGauge(name: string, help: string, read: (m: CacheMemory) => number): Gauge {
    const gauge: Gauge = new Gauge({
      name,
      help,
      registers: [this.registry],
      collect: () => {
        const m = this.#sources.cacheMemory?.();
        if (m) gauge.set(read(m));
      },
    });
    return gauge;
  }

  #counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter<L>({ name, help, labelNames, registers: [this.registry] });
  }

  #gauge<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
    return new Gauge<L>({ name, help, labelNames, registers: [this.registry] });
  }

  #histogram<L extends string = never>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []): Histogram<L> {
    return new Histogram<L>({ name, help, buckets, labelNames, registers: [this.registry] });
  }
}
