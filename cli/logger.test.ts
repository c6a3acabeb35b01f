/** Logger: level filtering and the two formats (text lines, pino JSON). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger, formatTextLine } from './logger.js';

function sink(): { lines: string[]; write(chunk: string): void } {
  const lines: string[] = [];
  return { lines, write: (chunk: string) => void lines.push(chunk) };
}

describe('logger', () => {
  it('text format: time, level, message, then key=value pairs', () => {
    const out = sink();
    const log = createLogger({ level: 'info', format: 'text' }, out);
    log.info({ port: 8086, address: '0.0.0.0', note: 'two words' }, 'listening');
    assert.equal(out.lines.length, 1);
    assert.match(out.lines[0]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO  listening port=8086 address=0\.0\.0\.0 note="two words"\n$/);
  });

  it('text format prints an error message and its stack', () => {
    const out = sink();
    createLogger({ level: 'info', format: 'text' }, out).error({ err: new Error('boom') }, 'failed');
    assert.match(out.lines[0]!, /ERROR failed error=boom\n {4}Error: boom\n {8}at /);
  });

  it('json format writes pino JSON lines', () => {
    const out = sink();
    createLogger({ level: 'debug', format: 'json' }, out).debug({ a: 1 }, 'hello');
    const record = JSON.parse(out.lines[0]!) as Record<string, unknown>;
    assert.equal(record['msg'], 'hello');
    assert.equal(record['a'], 1);
    assert.equal(record['level'], 20);
  });

  it('drops records below the configured level', () => {
    const out = sink();
    const log = createLogger({ level: 'warn', format: 'text' }, out);
    log.info({}, 'quiet');
    log.debug({}, 'quieter');
    log.warn({}, 'loud');
    assert.equal(out.lines.length, 1);
    assert.match(out.lines[0]!, /WARN {2}loud/);
    const trace = sink();
    createLogger({ level: 'trace', format: 'text' }, trace).trace({}, 'fine');
    assert.match(trace.lines[0]!, /TRACE fine/);
  });

  it('passes non-JSON through unchanged', () => {
    assert.equal(formatTextLine('not json'), 'not json\n');
  });
});
