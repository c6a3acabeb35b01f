/**
 * Transcripts of the client scripts in fixtures/clients (ruby influxdb gem, perl
 * InfluxDB::LineProtocol): one line per client call, `name: outcome`. A run against Strata is
 * compared line by line with the transcript recorded from InfluxDB 1.6.7, except for the calls
 * where Strata deliberately answers otherwise; each such deviation names its reason and gives
 * Strata's own line, so the deviation itself stays checked.
 */

export interface Deviation {
  /** The call's name, as the script prints it before `: `. */
  readonly name: string;
  /** Where the deviation is decided (decisions.md, README, source). */
  readonly why: string;
  /** Strata's expected outcome (after `name: `), from 1.6.7's. */
  readonly strata: (oracle: string) => string;
}

/** `name: outcome` lines in order; any other line (a client's log output) is an error. */
export function parseTranscript(text: string): { name: string; outcome: string }[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const at = line.indexOf(': ');
      if (at < 0) throw new Error(`not a transcript line: ${line}`);
      return { name: line.slice(0, at), outcome: line.slice(at + 2) };
    });
}

/**
 * The differences between Strata's transcript and the expected one (1.6.7's with the
 * deviations applied), one readable paragraph each; empty when they agree. A deviation whose
 * call is missing from the recording is reported too (the list would silently rot otherwise).
 */
export function compareTranscripts(strata: string, oracle: string, deviations: readonly Deviation[]): string[] {
  const ours = parseTranscript(strata);
  const theirs = parseTranscript(oracle);
  const byName = new Map(deviations.map((d) => [d.name, d]));
  const problems: string[] = [];
  for (const d of deviations) {
    if (!theirs.some((t) => t.name === d.name)) problems.push(`deviation "${d.name}" names no call of the recording`);
  }
  const n = Math.max(ours.length, theirs.length);
  for (let i = 0; i < n; i++) {
    const o = ours[i];
    const t = theirs[i];
    if (!o || !t || o.name !== t.name) {
      problems.push(`call ${i + 1}: strata ran "${o?.name ?? '(nothing)'}", 1.6.7 "${t?.name ?? '(nothing)'}"`);
      break;
    }
    const d = byName.get(t.name);
    const expected = d ? d.strata(t.outcome) : t.outcome;
    if (o.outcome !== expected) {
      problems.push(`${t.name}\n  strata:   ${o.outcome}\n  expected: ${expected}${d ? `\n  (1.6.7:   ${t.outcome}; deviation: ${d.why})` : ''}`);
    }
  }
  return problems;
}
