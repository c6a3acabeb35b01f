/**
 * A counter without labels for per-request counts (service_query_requests_total,
 * service_query_errors_total), exposed exactly as prom-client's Counter exposes one
 * (plain-counter.test.ts compares both). Why not prom-client's Counter: its inc() checks
 * whether it was given labels, validates the value and finds the sample through a hash map on
 * every call; per request that is a few functions more to run, and while the process is young
 * they run in the interpreter. Here an increment is one addition.
 */
import type { Registry } from 'prom-client';

export class PlainCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  #value = 0;

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    // Registry only needs name, get() and reset(); this object is not a prom-client Metric.
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** Adds one. */
  inc(): void {
    this.#value++;
  }

  reset(): void {
    this.#value = 0;
  }

  async get(): Promise<{ help: string; name: string; type: string; values: { value: number; labels: Record<string, never> }[]; aggregator: string }> {
    return { help: this.help, name: this.name, type: this.type, values: [{ value: this.#value, labels: {} }], aggregator: this.aggregator };
  }
}
