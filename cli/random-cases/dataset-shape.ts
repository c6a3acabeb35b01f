/** What the generators know of the shared conformance dataset's `telemetry` database. */
export interface MeasurementShape {
  readonly fields: readonly string[];
  /** Numeric fields (aggregates, transforms, comparisons). */
  readonly numeric: readonly string[];
  readonly tags: Readonly<Record<string, readonly string[]>>;
  /** Hours of 2024-03-09 that hold data. */
  readonly span: readonly [number, number];
}

export const TELEMETRY: Readonly<Record<string, MeasurementShape>> = {
  cpu: {
    fields: ['usage_user', 'usage_system', 'usage_idle'],
    numeric: ['usage_user', 'usage_system', 'usage_idle'],
    tags: { host: ['server01', 'server02', 'server03', 'server04'], region: ['us-east', 'us-west', 'eu-central'] },
    span: [0, 24],
  },
  mem: { fields: ['total', 'used', 'free', 'used_percent'], numeric: ['used', 'free', 'used_percent'], tags: { host: ['server01', 'server02'] }, span: [0, 24] },
  diskio: {
    fields: ['reads', 'writes', 'read_bytes', 'io_time'],
    numeric: ['reads', 'writes', 'io_time'],
    // `name` is a keyword: quoted wherever a generator writes it.
    tags: { host: ['server01', 'server02'], '"name"': ['sda', 'sdb'] },
    span: [10, 12],
  },
  events: {
    fields: ['message', 'ok', 'code', 'latency'],
    numeric: ['code', 'latency'],
    tags: { host: ['server01', 'server02', 'server03'], level: ['info', 'warn', 'error'] },
    span: [0, 24],
  },
  sparse: { fields: ['temp', 'level'], numeric: ['temp', 'level'], tags: { sensor: ['s1', 's2'] }, span: [0, 10] },
  net: { fields: ['bytes_recv', 'bytes_sent', 'err'], numeric: ['bytes_recv', 'bytes_sent', 'err'], tags: { host: ['server01', 'server02'], iface: ['eth0', 'eth1'] }, span: [0, 24] },
};

export const MEASUREMENTS = Object.keys(TELEMETRY);
