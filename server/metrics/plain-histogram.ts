/**
 * A histogram without labels for per-request timings (service_query_duration_seconds,
 * service_write_duration_seconds), exposed exactly as prom-client's Histogram exposes one:
 * the same `_bucket{le=...}` lines with cumulative counts, `+Inf`, `_sum` and `_count`, in
 * the same order (plain-histogram.test.ts compares both on random observations).
 *
 * Why not prom-client's Histogram: its observe() builds a label object, validates and hashes
 * it and finds the bucket through property names made from the bound numbers, and its
 * startTimer() allocates closures and hrtime pairs. That ran on every request after the
 * answer was sent and cost a noticeable part of a small query's CPU; here an observation is
 * a bucket search over a Float64Array and three additions.
 */
import type { Registry } from 'prom-client';

/** One exported sample, shaped as prom-client's histogram values (Registry formats them). */
interface Sample {
  readonly value: number;
  readonly metricName: string;
  readonly exemplar?: null;
  readonly labels: Readonly<Record<string, string | number>>;
}

export class PlainHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #bounds: Float64Array;
  /** Observations per bucket (not cumulative); the last slot holds those above every bound. */
  readonly #counts: Float64Array;
  #sum = 0;
  #count = 0;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    this.#bounds = Float64Array.from(upperBounds);
    this.#counts = new Float64Array(upperBounds.length + 1);
    // Registry only needs name, get() and reset(); this object is not a prom-client Metric.
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.#counts[i]!++;
    this.#sum += value;
    this.#count++;
  }

  /** prom-client's startTimer() without labels: the returned function observes and returns the seconds. */
  startTimer(): () => number {
    const started = performance.now();
    return () => {
      const seconds = (performance.now() - started) / 1000;
      this.observe(seconds);
      return seconds;
    };
  }

  reset(): void {
    this.#counts.fill(0);
    this.#sum = 0;
    this.#count = 0;
  }

  async get(): Promise<{ name: string; help: string; type: string; values: Sample[]; aggregator: string }> {
    const bucket = `${this.name}_bucket`;
    const values: Sample[] = [];
    let cumulative = 0;
    for (let i = 0; i < this.upperBounds.length; i++) {
      cumulative += this.#counts[i]!;
      values.push({ value: cumulative, metricName: bucket, exemplar: null, labels: { le: this.upperBounds[i]! } });
    }
    values.push(
      { value: this.#count, metricName: bucket, exemplar: null, labels: { le: '+Inf' } },
      { value: this.#sum, metricName: `${this.name}_sum`, labels: {} },
      { value: this.#count, metricName: `${this.name}_count`, labels: {} },
    );
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}
