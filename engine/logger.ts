/**
 * The logging seam the engine depends on. pino's Logger satisfies it; tests pass a
 * collecting logger. The engine never creates its own logger.
 */
export interface EngineLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A logger that drops everything (default for library use and tests that do not assert logs). */
export const silentLogger: EngineLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** A logger that records entries, for tests asserting that damage was reported. */
export function collectingLogger(): EngineLogger & { entries: { level: string; msg: string; obj: object }[] } {
  const entries: { level: string; msg: string; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg: string) => void entries.push({ level, msg, obj });
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
