/** Layered configuration: spec defaults, TOML + env precedence, errors, deprecations, clamps. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, formatConfigToml, loadConfig, type LoadedConfig } from './config.js';

function load(opts: { file?: string; path?: string; files?: Record<string, string>; env?: Record<string, string> } = {}): LoadedConfig {
  const files: Record<string, string> = { ...opts.files };
  if (opts.file !== undefined) files[opts.path ?? './config.toml'] = opts.file;
  return loadConfig({
    argvConfigPath: opts.path,
    getenv: () => ({ PATH: '/usr/bin', HOME: '/root', ...opts.env }),
    readFile: (path) => files[path],
  });
}

function problemsOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    return err.message;
  }
  assert.fail('expected a ConfigError');
}

/** Every key of service-spec "Configuration keys and defaults", with its default. */
const SPEC_DEFAULTS = {
  server: {
    bind_address: '0.0.0.0',
    port: 8086,
    max_body_size_bytes: 26214400,
    request_timeout_secs: 30,
    query_timeout_secs: 30,
    max_concurrent_queries: 0,
    tls_enabled: false,
    tls_cert_path: '',
    tls_key_path: '',
    jit_warmup: false, // not a spec key: start-up priming (cli/jit-warmup.ts, engine/write/warmup.ts)
    baseline_jit: true, // not a spec key: baseline code on first call once listening (cli/baseline-jit.ts)
    gzip_responses: true, // not a spec key: gzip answers when the client asks (server/http/gzip-response.ts)
  },
  auth: { enabled: false, allow_query_param_credentials: false },
  rate_limit: { enabled: false, max_requests_per_second: 0 },
  statement_summary: { enabled: true, max_entries: 1000, require_auth: true },
  // block_cache_bytes and cache_snapshot_bytes are not spec keys: memory budgets (README "Tuning")
  storage: { wal_dir: './wal', meta_dir: './meta', wal_format: 'bincode', block_cache_bytes: 33554432, compact_full_write_cold_duration: '4h' },
  flush: { interval_secs: 10, max_points_per_batch: 50000, wal_batch_size: 64, wal_batch_delay_us: 200, arrow_wal_enabled: true, cache_snapshot_bytes: 8388608 },
  chdb: {
    session_data_path: './chdb_data',
    query_pool_size: 4,
    write_pool_size: 4,
    pool_size: 0,
    schema_cache_max_entries: 10000,
    insert_max_threads: 4,
    insert_min_insert_block_size_rows: 0,
    insert_max_insert_block_size: 0,
    tag_low_cardinality_max: 100000,
  },
  cardinality: { max_tag_values_per_measurement: 100000, max_measurements_per_database: 10000 },
  retention: { enabled: true, interval: '12h' },
  disk: { enabled: true, check_interval_secs: 60, warn_threshold_mb: 1024, readonly_threshold_mb: 256 },
  cluster: {
    enabled: false,
    node_id: 1,
    cluster_addr: '127.0.0.1:8086',
    peers: [],
    heartbeat_interval_secs: 2,
    heartbeat_miss_threshold: 5,
    anti_entropy_enabled: false,
    anti_entropy_interval_secs: 60,
    replication_log_dir: './replication_log',
    raft_dir: './raft',
    replication_max_retries: 5,
    replication_queue_depth: 8192,
    replication_max_inflight_batches: 8,
    replication_max_coalesce_body_bytes: 8388608,
    replicate_body_limit_bytes: 33554432,
    replicate_receiver_queue_depth: 1024,
    replicate_receiver_workers: 1,
    replication_truncate_stale_peer_multiplier: 2,
    sync_max_concurrent_files: 4,
    raft_heartbeat_interval_ms: 1000,
    raft_election_timeout_ms: 1000,
    raft_snapshot_threshold: 1000,
    replication: { mode: 'async', ack_timeout_ms: 5000, sync_quorum: { min_acks: 'majority' } },
  },
  hinted_handoff: { enabled: true, max_hints_per_peer: 100000, max_hint_age_secs: 3600 },
  sharding: {
    enabled: false,
    replication_factor: 3,
    region_split_series: 100000,
    region_max_series: 150000,
    region_merge_series: 20000,
    split_merge_interval_secs: 3600,
    schedule_limit: 4,
    heartbeat_interval_secs: 10,
    bootstrap_timeout_ms: 5000,
    primary_failover_after_secs: 60,
    scatter_peer_timeout_ms: 5000,
    scatter_max_peer_attempts: 3,
    peer_heal_enabled: true,
    load_split_qps_threshold: 0,
    max_regions_per_measurement: 128,
    transfer_clear_proposals_enabled: true,
  },
  logging: { level: 'info', format: 'text' },
};

describe('config defaults', () => {
  it('has every spec key with its spec default, with no file and no env', () => {
    const loaded = load();
    assert.deepEqual(loaded.config, SPEC_DEFAULTS);
    assert.deepEqual(loaded.warnings, []);
    assert.equal(loaded.file, undefined);
  });

  it('prints as TOML that loads back to the same configuration', () => {
    const text = formatConfigToml(load().config);
    assert.match(text, /^port = 8086$/m);
    assert.match(text, /^\s*min_acks = "majority"$/m);
    assert.deepEqual(load({ file: text }).config, SPEC_DEFAULTS);
  });
});

describe('config layering', () => {
  it('env overrides the file, the file overrides defaults', () => {
    const file = `
[server]
bind_address = "127.0.0.1"
port = 9000
[cluster.replication]
mode = "sync_quorum"
sync_quorum.min_acks = 2
`;
    const { config, file: used, describeSource } = load({
      file,
      env: { SERVICE__SERVER__PORT: '9100', SERVICE__CLUSTER__REPLICATION__MODE: 'async' },
    });
    assert.equal(used, './config.toml');
    assert.equal(config.server.bind_address, '127.0.0.1');
    assert.equal(config.server.port, 9100);
    assert.equal(config.cluster.replication.mode, 'async');
    assert.equal(config.cluster.replication.sync_quorum.min_acks, 2);
    assert.equal(describeSource('server.port'), 'environment variable SERVICE__SERVER__PORT');
    assert.equal(describeSource('server.bind_address'), 'config file ./config.toml');
    assert.equal(describeSource('server.max_body_size_bytes'), undefined);
  });

  it('reads the file named by --config', () => {
    const { config, file } = load({ path: '/etc/strata.toml', file: '[logging]\nlevel = "debug"\n' });
    assert.equal(file, '/etc/strata.toml');
    assert.equal(config.logging.level, 'debug');
  });

  it('parses env values by the key type', () => {
    const { config } = load({
      env: {
        SERVICE__SERVER__TLS_ENABLED: 'false',
        SERVICE__AUTH__ENABLED: 'TRUE',
        SERVICE__SERVER__BIND_ADDRESS: '10.0.0.1',
        SERVICE__STORAGE__WAL_DIR: '1234',
        SERVICE__CLUSTER__PEERS: 'a:8086, b:8086,,c:8086',
        SERVICE__CLUSTER__REPLICATION__SYNC_QUORUM__MIN_ACKS: '3',
        SERVICE__RETENTION__INTERVAL: '1h30m',
        SERVICE__LOGGING__FORMAT: 'json',
        SERVICE__server__query_timeout_secs: '5',
      },
    });
    assert.equal(config.auth.enabled, true);
    assert.equal(config.server.bind_address, '10.0.0.1');
    assert.equal(config.storage.wal_dir, '1234');
    assert.deepEqual(config.cluster.peers, ['a:8086', 'b:8086', 'c:8086']);
    assert.equal(config.cluster.replication.sync_quorum.min_acks, 3);
    assert.equal(config.retention.interval, '1h30m');
    assert.equal(config.logging.format, 'json');
    assert.equal(config.server.query_timeout_secs, 5);
  });

  it('accepts peers as a TOML array and min_acks = "majority" from env', () => {
    const { config } = load({
      file: '[cluster]\npeers = ["n1:8086", "n2:8086"]\n',
      env: { SERVICE__CLUSTER__REPLICATION__SYNC_QUORUM__MIN_ACKS: 'majority' },
    });
    assert.deepEqual(config.cluster.peers, ['n1:8086', 'n2:8086']);
    assert.equal(config.cluster.replication.sync_quorum.min_acks, 'majority');
  });

  it('server.jit_warmup (off by default) is switched on from the file or the environment', () => {
    assert.equal(load().config.server.jit_warmup, false);
    assert.equal(load({ file: '[server]\njit_warmup = true\n' }).config.server.jit_warmup, true);
    assert.equal(load({ env: { SERVICE__SERVER__JIT_WARMUP: 'true' } }).config.server.jit_warmup, true);
    assert.equal(load({ file: '[server]\njit_warmup = true\n', env: { SERVICE__SERVER__JIT_WARMUP: 'false' } }).config.server.jit_warmup, false);
  });

  it('server.baseline_jit (on by default) is switched off from the file or the environment', () => {
    assert.equal(load().config.server.baseline_jit, true);
    assert.equal(load({ file: '[server]\nbaseline_jit = false\n' }).config.server.baseline_jit, false);
    assert.equal(load({ env: { SERVICE__SERVER__BASELINE_JIT: 'false' } }).config.server.baseline_jit, false);
  });

  it('server.gzip_responses (on by default) is switched off from the file or the environment', () => {
    assert.equal(load().config.server.gzip_responses, true);
    assert.equal(load({ file: '[server]\ngzip_responses = false\n' }).config.server.gzip_responses, false);
    assert.equal(load({ env: { SERVICE__SERVER__GZIP_RESPONSES: 'false' } }).config.server.gzip_responses, false);
  });

  it('ignores environment variables without the SERVICE__ prefix', () => {
    assert.equal(load({ env: { SERVICE_SERVER_PORT: 'x', PORT: '1' } }).config.server.port, 8086);
  });
});

describe('config errors', () => {
  it('a missing default file is fine, a missing explicit file is an error', () => {
    assert.equal(load().file, undefined);
    assert.match(problemsOf(() => load({ path: './missing.toml' })), /config file not found: \.\/missing\.toml/);
  });

  it('names an unknown key in the file with the file path', () => {
    const msg = problemsOf(() => load({ path: 'x.toml', file: '[server]\nprot = 1\n' }));
    assert.match(msg, /unknown configuration key "server\.prot" \(from config file x\.toml\)/);
  });

  it('names an unknown section and an unknown top-level key in the file', () => {
    const msg = problemsOf(() => load({ file: 'verbose = true\n[bogus]\nx = 1\n' }));
    assert.match(msg, /unknown configuration key "verbose" \(from config file \.\/config\.toml\)/);
    assert.match(msg, /unknown configuration key "bogus" \(from config file \.\/config\.toml\)/);
  });

  it('names an unknown key from the environment with the variable', () => {
    for (const name of ['SERVICE__SERVER__PROT', 'SERVICE__NOPE__X', 'SERVICE__SERVER__PORT__X', 'SERVICE__SERVER____PORT']) {
      assert.match(problemsOf(() => load({ env: { [name]: '1' } })), new RegExp(`\\(from environment variable ${name}\\)`));
    }
    assert.match(problemsOf(() => load({ env: { SERVICE__SERVER: '1' } })), /"server" is a section, not a key/);
  });

  it('names a bad type in the file and in the environment', () => {
    const fromFile = problemsOf(() => load({ file: '[server]\nport = "abc"\n' }));
    assert.match(fromFile, /server\.port = "abc" \(from config file \.\/config\.toml\): .*expected number/);
    const fromEnv = problemsOf(() => load({ env: { SERVICE__SERVER__PORT: 'abc' } }));
    assert.match(fromEnv, /server\.port = "abc" \(from environment variable SERVICE__SERVER__PORT\): expected a number/);
    const bool = problemsOf(() => load({ env: { SERVICE__AUTH__ENABLED: 'yes please' } }));
    assert.match(bool, /auth\.enabled .*SERVICE__AUTH__ENABLED.*expected true or false/);
  });

  it('rejects out-of-range numbers, bad enums and bad durations, naming each source', () => {
    const msg = problemsOf(() =>
      load({
        file: '[logging]\nlevel = "verbose"\n[retention]\ninterval = "soon"\n',
        env: { SERVICE__SERVER__PORT: '70000', SERVICE__SERVER__REQUEST_TIMEOUT_SECS: '1.5' },
      }),
    );
    assert.match(msg, /server\.port = 70000 \(from environment variable SERVICE__SERVER__PORT\)/);
    assert.match(msg, /server\.request_timeout_secs = 1\.5 \(from environment variable/);
    assert.match(msg, /logging\.level = "verbose" \(from config file \.\/config\.toml\)/);
    assert.match(msg, /retention\.interval = "soon" \(from config file \.\/config\.toml\): expected a positive duration/);
  });

  it('reports TOML syntax errors with the file path', () => {
    assert.match(problemsOf(() => load({ file: 'port = = 1' })), /cannot parse config file \.\/config\.toml/);
  });

  it('rejects TLS without files, and sharding without cluster mode', () => {
    const tls = problemsOf(() => load({ env: { SERVICE__SERVER__TLS_ENABLED: 'true' } }));
    assert.match(tls, /server\.tls_cert_path is empty/);
    assert.match(tls, /server\.tls_key_path is empty/);
    assert.match(problemsOf(() => load({ file: '[sharding]\nenabled = true\n' })), /requires cluster\.enabled/);
  });
});

describe('config deprecated keys', () => {
  it('accepts each deprecated key with a warning naming its source', () => {
    const { warnings } = load({
      file: '[cluster]\nanti_entropy_enabled = true\nanti_entropy_interval_secs = 30\n',
      env: { SERVICE__CLUSTER__REPLICATE_RECEIVER_WORKERS: '4', SERVICE__CHDB__POOL_SIZE: '8' },
    });
    for (const key of ['cluster.anti_entropy_enabled', 'cluster.anti_entropy_interval_secs', 'cluster.replicate_receiver_workers', 'chdb.pool_size']) {
      assert.ok(warnings.some((w) => w.includes(key) && w.includes('deprecated')), `no warning for ${key}: ${warnings.join('; ')}`);
    }
  });
});

describe('config clamps and derived values', () => {
  const points = (value: string) => load({ env: { SERVICE__FLUSH__MAX_POINTS_PER_BATCH: value } });

  it('max_points_per_batch: 0 means the default, otherwise clamped to 10k..500k with a warning', () => {
    assert.equal(points('0').config.flush.max_points_per_batch, 50000);
    assert.equal(points('5').config.flush.max_points_per_batch, 10000);
    assert.equal(points('20000').config.flush.max_points_per_batch, 20000);
    assert.equal(points('1000000').config.flush.max_points_per_batch, 500000);
    assert.ok(points('5').warnings.some((w) => /flush\.max_points_per_batch = 5 .* using 10000/.test(w)));
    assert.deepEqual(points('20000').warnings, []);
  });

  it('pool sizes are clamped to 1..128', () => {
    const { config } = load({ file: '[chdb]\nquery_pool_size = 0\nwrite_pool_size = 1000\n' });
    assert.equal(config.chdb.query_pool_size, 1);
    assert.equal(config.chdb.write_pool_size, 128);
  });

  it('legacy pool_size fills only the pools not set explicitly', () => {
    const { config } = load({ file: '[chdb]\npool_size = 8\nquery_pool_size = 2\n' });
    assert.equal(config.chdb.query_pool_size, 2);
    assert.equal(config.chdb.write_pool_size, 8);
    const both = load({ env: { SERVICE__CHDB__POOL_SIZE: '16' } }).config.chdb;
    assert.equal(both.query_pool_size, 16);
    assert.equal(both.write_pool_size, 16);
  });

  it('replicate_body_limit_bytes: 0 resolves to max(4 x coalesce, max_body_size); too small is an error', () => {
    assert.equal(load().config.cluster.replicate_body_limit_bytes, 33554432);
    const big = load({ env: { SERVICE__SERVER__MAX_BODY_SIZE_BYTES: '104857600' } }).config;
    assert.equal(big.cluster.replicate_body_limit_bytes, 104857600);
    const small = load({ env: { SERVICE__CLUSTER__REPLICATION_MAX_COALESCE_BODY_BYTES: '1000' } }).config;
    assert.equal(small.cluster.replicate_body_limit_bytes, 26214400);
    assert.equal(load({ file: '[cluster]\nreplicate_body_limit_bytes = 9000000\n' }).config.cluster.replicate_body_limit_bytes, 9000000);
    const msg = problemsOf(() => load({ file: '[cluster]\nreplicate_body_limit_bytes = 1000\n' }));
    assert.match(msg, /cluster\.replicate_body_limit_bytes = 1000 \(from config file \.\/config\.toml\) must be at least/);
  });

  it('tag_low_cardinality_max follows the tag cardinality limit unless set', () => {
    const linked = load({ env: { SERVICE__CARDINALITY__MAX_TAG_VALUES_PER_MEASUREMENT: '500' } }).config;
    assert.equal(linked.chdb.tag_low_cardinality_max, 500);
    assert.equal(load({ env: { SERVICE__CHDB__TAG_LOW_CARDINALITY_MAX: '7' } }).config.chdb.tag_low_cardinality_max, 7);
  });
});
