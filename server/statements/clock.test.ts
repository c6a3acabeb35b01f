/** StatementClock: which statements of a request are recorded, with which error. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery } from '../../ql/index.js';
import { StatementClock } from './clock.js';
import { shapeableText } from './statement-text.js';
import { StatementSummaries } from './summary.js';

const texts = ['SHOW DATABASES', 'SELECT v FROM cpu', 'SHOW MEASUREMENTS'];

describe('StatementClock', () => {
  it('records statements with results; those after a failed one never ran', () => {
    const store = new StatementSummaries({ enabled: true, max_entries: 10 });
    const clock = new StatementClock(texts, (t) => t);
    clock.result({ statementId: 0 });
    clock.result({ statementId: 1, error: 'boom' });
    clock.finish([{ statementId: 0 }, { statementId: 1, error: 'boom' }], store);
    const byText = new Map(store.list().map((e) => [e.normalized_text, e]));
    assert.deepEqual([...byText.keys()].sort(), ['SELECT v FROM cpu', 'SHOW DATABASES']);
    assert.equal(byText.get('SELECT v FROM cpu')?.last_error, 'boom');
  });

  it('records results that were not streamed (no onResult) too', () => {
    const store = new StatementSummaries({ enabled: true, max_entries: 10 });
    new StatementClock(texts, (t) => t).finish(texts.map((_, i) => ({ statementId: i })), store);
    assert.equal(store.size, 3);
  });

  it('texts are printed when recorded, and only for statements that ran', () => {
    const store = new StatementSummaries({ enabled: true, max_entries: 10 });
    const printed: number[] = [];
    const clock = new StatementClock([0, 1, 2], (i) => (printed.push(i), texts[i]!));
    clock.result({ statementId: 0 });
    assert.deepEqual(printed, []);
    clock.finish([{ statementId: 0, error: 'boom' }], store);
    assert.deepEqual(printed, [0]);
    assert.deepEqual(store.list().map((e) => e.normalized_text), ['SHOW DATABASES']);
  });

  it('on abandon, the first statement without a result carries the error', () => {
    const store = new StatementSummaries({ enabled: true, max_entries: 10 });
    const clock = new StatementClock(texts, (t) => t);
    clock.result({ statementId: 0 });
    clock.abandon('query timeout', store);
    const entries = store.list();
    assert.equal(entries.length, 2);
    assert.equal(entries.find((e) => e.normalized_text === 'SELECT v FROM cpu')?.last_error, 'query timeout');
  });

  it('with the request text, a known shape is printed only when the summary is read', () => {
    const store = new StatementSummaries({ enabled: true, max_entries: 10 });
    const printed: string[] = [];
    const print = (t: string) => (printed.push(t), t.replace(/\s+/g, ' '));
    const run = (q: string) => {
      const statements = q.split(';');
      const clock = new StatementClock(statements, print, q);
      clock.finish(statements.map((_, i) => ({ statementId: i })), store);
    };
    run(`SELECT v FROM cpu WHERE host = 'a';SHOW DATABASES`);
    assert.equal(printed.length, 2, 'a new shape is printed to find its normalized text');
    run(`SELECT v FROM cpu WHERE host = 'b';SHOW DATABASES`);
    run(`SELECT v FROM cpu WHERE host = 'c';SHOW DATABASES`);
    assert.equal(printed.length, 2, 'known shapes are not printed when recorded');
    const entries = store.list();
    assert.deepEqual(printed.slice(2).sort(), ['SHOW DATABASES', `SELECT v FROM cpu WHERE host = 'c'`].sort(), 'the latest samples, printed when read');
    assert.equal(entries.find((e) => e.exec_count === 3 && e.normalized_text.startsWith('SELECT'))?.sample_text, `SELECT v FROM cpu WHERE host = 'c'`);
    store.list();
    assert.equal(printed.length, 4, 'printed once');
  });

  it('statements with a password or bound parameters are printed when recorded (shapeableText)', () => {
    const q = `SHOW DATABASES; CREATE USER bob WITH PASSWORD 'secret'`;
    assert.equal(shapeableText(q, false, parseQuery(q)), undefined);
    assert.equal(shapeableText('SHOW DATABASES', true, parseQuery('SHOW DATABASES')), undefined);
    assert.equal(shapeableText('SHOW DATABASES', false, parseQuery('SHOW DATABASES')), 'SHOW DATABASES');
  });
});
