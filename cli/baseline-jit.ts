/**
 * server.baseline_jit: once `serve` has opened its storage and is about to listen, V8 compiles
 * every function to baseline machine code (Sparkplug) on its first call, instead of
 * interpreting it until it has run often enough.
 *
 * Why: a request runs a few hundred functions once each (route, parser, planner, executor,
 * cursors, JSON writer). In a fresh process they stay in V8's bytecode interpreter for their
 * first tens of calls, so the first queries after a start cost 2-3x their later CPU; a Grafana
 * dashboard opened after a restart waits for that. Baseline code from the first call cut a
 * one-host group-by-time query's requests 6-20 from ~0.9 to ~0.65 ms of wall time, a new
 * host and window each request from ~1.8 to ~1.2 ms (perf/QUERY.md, session 18). TurboFan still optimizes hot functions later as usual.
 *
 * Why only from here: set before the modules load, it would also compile start-up's one-shot
 * code (+0.3 s before `/ping` answers on the bench machine). Set here, functions already run
 * during start-up keep their normal tiering; the request paths, first called after this, get
 * baseline code. The flag is process-wide, so worker threads' later-compiled functions get it
 * too; the write path measured no worse for it, and resident memory did not move measurably
 * (perf/QUERY.md, session 18).
 */
import { setFlagsFromString } from 'node:v8';

export function compileBaselineOnFirstCall(): void {
  setFlagsFromString('--always-sparkplug');
}
