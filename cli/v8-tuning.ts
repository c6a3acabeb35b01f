/**
 * V8 settings for `strata serve`, applied at run time (the single executable has no
 * execArgv; perf/QUERY.md, session q7, has the measurements).
 *
 * Interrupt budget: V8 optimizes a function once it has executed about this many bytes of
 * bytecode since its last tier-up check, a few checks in a row (default 66 KiB, sized for
 * loops). A server's request path is mostly functions that run once per request (route,
 * executor, planner, formatter), so with the default they stay in the interpreter and
 * baseline code for the first thousand-odd requests of a kind and cost up to twice the CPU:
 * single-groupby-1-1-1 took 0.72 ms of CPU per request after 300 requests with the default
 * and 0.52 ms with a quarter of it; after 100-160 requests, 16 KiB / 8 KiB / 4 KiB gave
 * 0.86 / 0.71 / 0.62 ms and 0.75 / 0.69 / 0.64 ms in two rounds. Loops are unaffected (they
 * reach any budget at once); the price is optimizing more functions early, on V8's
 * background threads, and a little more code memory. V8 reads the flag whenever it resets a
 * function's budget, so setting it after start-up takes effect (measured: the same figures
 * as the command-line flag).
 */
import { setFlagsFromString } from 'node:v8';

/** Bytes of bytecode between tier-up checks: a sixteenth of V8's default. */
export const SERVING_INTERRUPT_BUDGET = 4 * 1024;

export function tuneV8ForServing(): void {
  setFlagsFromString(`--interrupt-budget=${SERVING_INTERRUPT_BUDGET}`);
}
