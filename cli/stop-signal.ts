/**
 * SIGINT/SIGTERM for `strata serve`: the graceful stop once listening, and a stop asked for while
 * the JIT warm-up runs. Without a listener the default action ends the process at once, which
 * during the warm-up leaves its scratch engine (WAL, TSM files) in the temporary directory: a
 * service restarted while starting, run after run, would fill an edge device's SD card.
 */

/** The next SIGINT or SIGTERM (the listeners are removed once it came). */
export function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on).off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on).on('SIGTERM', on);
  });
}

/**
 * Runs `work` with SIGINT/SIGTERM caught: the first signal aborts `work`'s AbortSignal (it stops
 * early and removes what it made) and is returned once `work` has settled; a second one means
 * "now" and calls `exitNow`. Returns undefined when no signal came.
 */
export async function catchingStop(work: (stop: AbortSignal) => Promise<void>, exitNow: (signal: NodeJS.Signals) => void): Promise<NodeJS.Signals | undefined> {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const on = (signal: NodeJS.Signals) => {
    if (received !== undefined) return exitNow(signal);
    received = signal;
    controller.abort();
  };
  process.on('SIGINT', on).on('SIGTERM', on);
  try {
    await work(controller.signal);
  } finally {
    process.off('SIGINT', on).off('SIGTERM', on);
  }
  return received;
}
