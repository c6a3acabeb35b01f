/**
 * Process logger: pino to stderr (spec "What the service does" item 10). `logging.level` is
 * trace..error; `logging.format` is `json` (pino's own lines) or `text` (default), a compact
 * human line produced here from pino's JSON, since pino-pretty is not a dependency:
 *
 *   2026-11-21T06:42:24.123Z INFO  listening address=0.0.0.0 port=8086
 *
 * The logger satisfies EngineLogger (engine/index.ts), so it is handed down to every layer.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { z } from 'zod';

export const loggingSectionSchema = z.strictObject({
  level: z.enum(['trace', 'debug', 'info', 'warn', 'error']).default('info'),
  format: z.enum(['text', 'json']).default('text'),
});
export type LoggingSection = z.output<typeof loggingSectionSchema>;
export type { Logger };

const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** One pino JSON record → one text line (plus an indented stack for errors). */
export function formatTextLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const { time, level, msg, err, ...rest } = record;
  const parts = [
    new Date(typeof time === 'number' ? time : Date.now()).toISOString(),
    LEVEL_NAMES[Number(level)] ?? String(level),
    typeof msg === 'string' ? msg : '',
  ];
  for (const [key, value] of Object.entries(rest)) parts.push(`${key}=${formatValue(value)}`);
  let line = parts.join(' ');
  if (err && typeof err === 'object') {
    const { message, stack } = err as { message?: unknown; stack?: unknown };
    line += ` error=${formatValue(message)}`;
    if (typeof stack === 'string') line += `\n    ${stack.split('\n').join('\n    ')}`;
  }
  return `${line}\n`;
}

/** Where log lines go; process.stderr by default, a collector in tests. */
export interface LogSink {
  write(chunk: string): unknown;
}

export function createLogger(section: LoggingSection, sink: LogSink = process.stderr): Logger {
  const stream: DestinationStream =
    section.format === 'json' ? sink : { write: (line: string) => void sink.write(formatTextLine(line)) };
  return pino({ level: section.level, base: undefined }, stream);
}
