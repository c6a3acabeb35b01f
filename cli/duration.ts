/**
 * Duration text as config keys use it (`retention.interval = "12h"`): one or more
 * `<number><unit>` terms, units ns, us/µs/u, ms, s, m, h, d, w (Go's time.ParseDuration plus
 * d and w). Returns milliseconds, or undefined when the text is not a duration.
 */
const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  u: 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const TERM = /(\d+(?:\.\d+)?)(ns|us|µs|u|ms|s|m|h|d|w)/y;

export function parseDurationMs(text: string): number | undefined {
  if (text.length === 0) return undefined;
  let total = 0;
  TERM.lastIndex = 0;
  while (TERM.lastIndex < text.length) {
    const m = TERM.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return total;
}
