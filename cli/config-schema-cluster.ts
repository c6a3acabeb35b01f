/**
 * Cluster-side configuration sections: [cluster] (with [cluster.replication]),
 * [hinted_handoff] and [sharding] (service-spec "Configuration keys and defaults"). Strata runs
 * single-node today; these keys are validated and carried so configuration written for the
 * spec keeps loading. Derived values (replicate_body_limit_bytes) live in config-resolve.ts.
 */
import { z } from 'zod';

const int = () => z.number().int();

/** `peers` is a comma-separated seed list; a TOML array is accepted too. */
const peerList = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((peer) => peer.trim())
          .filter((peer) => peer !== '')
      : value,
  z.array(z.string().min(1)),
);

export const replicationSectionSchema = z.strictObject({
  mode: z.enum(['async', 'sync_quorum']).default('async'),
  ack_timeout_ms: int().positive().default(5000),
  sync_quorum: z
    .strictObject({
      /** `majority` (floor(N/2) peer acks) or an explicit count, clamped to active peers at run time. */
      min_acks: z.union([z.literal('majority'), int().nonnegative()]).default('majority'),
    })
    .prefault({}),
});

export const clusterSectionSchema = z.strictObject({
  enabled: z.boolean().default(false),
  node_id: int().nonnegative().default(1),
  cluster_addr: z.string().min(1).default('127.0.0.1:8086'),
  peers: peerList.default([]),
  heartbeat_interval_secs: int().positive().default(2),
  heartbeat_miss_threshold: int().positive().default(5),
  /** Deprecated, no effect. */
  anti_entropy_enabled: z.boolean().default(false),
  /** Deprecated, no effect. */
  anti_entropy_interval_secs: int().nonnegative().default(60),
  replication_log_dir: z.string().min(1).default('./replication_log'),
  raft_dir: z.string().min(1).default('./raft'),
  replication_max_retries: int().nonnegative().default(5),
  replication_queue_depth: int().positive().default(8192),
  replication_max_inflight_batches: int().positive().default(8),
  replication_max_coalesce_body_bytes: int().positive().default(8_388_608),
  /** 0 resolves to max(4 × coalesce cap, server.max_body_size_bytes); must be ≥ the coalesce cap. */
  replicate_body_limit_bytes: int().nonnegative().default(0),
  replicate_receiver_queue_depth: int().positive().default(1024),
  /** Deprecated, ignored. */
  replicate_receiver_workers: int().nonnegative().default(1),
  replication_truncate_stale_peer_multiplier: int().positive().default(2),
  sync_max_concurrent_files: int().positive().default(4),
  raft_heartbeat_interval_ms: int().positive().default(1000),
  raft_election_timeout_ms: int().positive().default(1000),
  raft_snapshot_threshold: int().positive().default(1000),
  replication: replicationSectionSchema.prefault({}),
});

export const hintedHandoffSectionSchema = z.strictObject({
  enabled: z.boolean().default(true),
  max_hints_per_peer: int().positive().default(100_000),
  max_hint_age_secs: int().positive().default(3600),
});

export const shardingSectionSchema = z.strictObject({
  enabled: z.boolean().default(false),
  replication_factor: int().positive().default(3),
  region_split_series: int().positive().default(100_000),
  region_max_series: int().positive().default(150_000),
  region_merge_series: int().nonnegative().default(20_000),
  split_merge_interval_secs: int().positive().default(3600),
  schedule_limit: int().positive().default(4),
  heartbeat_interval_secs: int().positive().default(10),
  bootstrap_timeout_ms: int().positive().default(5000),
  primary_failover_after_secs: int().positive().default(60),
  scatter_peer_timeout_ms: int().positive().default(5000),
  scatter_max_peer_attempts: int().positive().default(3),
  peer_heal_enabled: z.boolean().default(true),
  /** 0 disables load-based splits. */
  load_split_qps_threshold: int().nonnegative().default(0),
  max_regions_per_measurement: int().positive().default(128),
  /** Set false on mixed-version clusters. */
  transfer_clear_proposals_enabled: z.boolean().default(true),
});

export const clusterConfigSections = {
  cluster: clusterSectionSchema.prefault({}),
  hinted_handoff: hintedHandoffSectionSchema.prefault({}),
  sharding: shardingSectionSchema.prefault({}),
};
