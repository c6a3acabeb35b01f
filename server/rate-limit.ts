/**
 * Request rate limiting (spec "Limits → Rate limiting"), per process and shared by all clients:
 * `/write` and `/query` each have an independent token bucket whose capacity and refill rate
 * both equal `rate_limit.max_requests_per_second`. Refill is continuous (rate/1000 tokens per
 * millisecond, capped at the capacity), so a drained bucket of 5 gives one request every
 * 200 ms and is full again one second after the burst — the spec's "five pass, the sixth gets
 * 429, writes pass again after about one second".
 *
 * Only /write and /query are limited; /ping, /health, /metrics, /api/v1/* and cluster routes
 * never are. The check runs before authentication and before the body is read: a limited
 * request costs no password verification. `enabled = false` or a limit of 0 disables it.
 *
 * `deniedTotal` counts 429 answers; `onDenied` feeds `service_rate_limit_denied_total`.
 */
import { StrataError } from '../engine/index.js';
import type { RateLimitSection } from './options.js';

/** Milliseconds on a monotonic clock; injectable for deterministic tests. */
export type Clock = () => number;

export const monotonicClock: Clock = () => performance.now();

/** The spec's 429 text; the body is the usual 1.x-style `{"error": ...}`. */
export class RateLimitedError extends StrataError {
  constructor() {
    super('rate_limited', 429, 'rate limit exceeded, try again later');
  }
}

export class TokenBucket {
  #tokens: number;
  #last: number;

  constructor(
    readonly capacity: number,
    private readonly clock: Clock,
  ) {
    this.#tokens = capacity;
    this.#last = clock();
  }

  /** Take one token; false when the bucket is empty. */
  take(): boolean {
    const now = this.clock();
    const elapsed = Math.max(0, now - this.#last);
    this.#last = now;
    this.#tokens = Math.min(this.capacity, this.#tokens + (elapsed * this.capacity) / 1000);
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

export type LimitedRoute = 'write' | 'query';

/** Which bucket a path draws from; undefined for routes that are never limited. */
export function limitedRoute(path: string): LimitedRoute | undefined {
  if (path === '/write') return 'write';
  if (path === '/query') return 'query';
  return undefined;
}

export class RateLimiter {
  readonly #buckets: Record<LimitedRoute, TokenBucket> | undefined;
  #denied = 0;

  constructor(
    section: RateLimitSection,
    clock: Clock = monotonicClock,
    /** Called on every 429 (the metrics counter). */
    private readonly onDenied: () => void = () => {},
  ) {
    const limit = section.max_requests_per_second;
    if (section.enabled && limit > 0) this.#buckets = { write: new TokenBucket(limit, clock), query: new TokenBucket(limit, clock) };
  }

  get enabled(): boolean {
    return this.#buckets !== undefined;
  }

  /** Requests answered 429 since start (`service_rate_limit_denied_total`). */
  get deniedTotal(): number {
    return this.#denied;
  }

  /** Throws RateLimitedError when the route's bucket is empty. */
  admit(path: string): void {
    const route = limitedRoute(path);
    if (!this.#buckets || !route) return;
    if (this.#buckets[route].take()) return;
    this.#denied++;
    this.onDenied();
    throw new RateLimitedError();
  }
}
