/** The statement summary store: aggregation, bound, clear, disabled mode, redaction. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatementSummaries } from './summary.js';

const run = (text: string, durationMs = 1, error?: string, at = 1_700_000_000_000) => ({ text, durationMs, error, at });

describe('StatementSummaries', () => {
  it('aggregates executions per digest: count, total, avg, max, last error, first and last seen', () => {
    const s = new StatementSummaries({ enabled: true, max_entries: 10 });
    s.record(run(`SELECT v FROM cpu WHERE host = 'a'`, 2, undefined, 1_000));
    s.record(run(`SELECT v FROM cpu WHERE host = 'b'`, 6, 'boom', 2_000));
    s.record(run(`SELECT v FROM cpu WHERE host = 'c'`, 1, undefined, 3_000));
    const [e, ...rest] = s.list();
    assert.equal(rest.length, 0);
    assert.ok(e);
    assert.equal(e.normalized_text, 'SELECT v FROM cpu WHERE host = ?');
    assert.equal(e.sample_text, `SELECT v FROM cpu WHERE host = 'c'`);
    assert.equal(e.exec_count, 3);
    assert.equal(e.error_count, 1);
    assert.equal(e.total_exec_ms, 9);
    assert.equal(e.avg_exec_ms, 3);
    assert.equal(e.max_exec_ms, 6);
    assert.equal(e.last_error, 'boom');
    assert.equal(e.first_seen, new Date(1_000).toISOString());
    assert.equal(e.last_seen, new Date(3_000).toISOString());
  });

  it('keeps at most max_entries digests, evicting the least recently seen', () => {
    const s = new StatementSummaries({ enabled: true, max_entries: 3 });
    for (const m of ['a', 'b', 'c']) s.record(run(`SELECT v FROM ${m}`));
    s.record(run('SELECT v FROM a')); // a is now the most recent
    s.record(run('SELECT v FROM d')); // evicts b
    assert.equal(s.size, 3);
    assert.deepEqual(
      s.list().map((e) => e.normalized_text),
      ['SELECT v FROM d', 'SELECT v FROM a', 'SELECT v FROM c'],
    );
    for (let i = 0; i < 100; i++) s.record(run(`SELECT v FROM m${i}`));
    assert.equal(s.size, 3);
  });

  it('clear() empties it', () => {
    const s = new StatementSummaries({ enabled: true, max_entries: 3 });
    s.record(run('SHOW DATABASES'));
    s.clear();
    assert.deepEqual(s.list(), []);
  });

  it('records nothing when disabled', () => {
    const s = new StatementSummaries({ enabled: false, max_entries: 3 });
    s.record(run('SHOW DATABASES'));
    assert.equal(s.size, 0);
    assert.deepEqual(s.list(), []);
  });

  it('stores no password anywhere: text, sample or error', () => {
    const s = new StatementSummaries({ enabled: true, max_entries: 3 });
    s.record(run(`CREATE USER bob WITH PASSWORD 'hunter2' WITH ALL PRIVILEGES`));
    s.record(run(`SET PASSWORD FOR bob = 'hunter2'`, 1, `cannot set password 'hunter2' for bob`));
    s.record(run('CREATE USER eve WITH PASSWORD hunter2', 0, 'found hunter2, expected string'));
    const json = JSON.stringify(s.list());
    assert.doesNotMatch(json, /hunter2/);
    const texts = s.list().map((e) => e.sample_text);
    assert.ok(texts.includes(`SET PASSWORD FOR bob = '?'`));
    assert.ok(texts.includes(`CREATE USER bob WITH PASSWORD '?' WITH ALL PRIVILEGES`));
  });

  it('a text seen again (including after many others) is summarised as the first time', () => {
    const s = new StatementSummaries({ enabled: true, max_entries: 1000 });
    const text = `SELECT v FROM cpu WHERE host = 'a' AND time > 1`;
    s.record(run(text, 1));
    for (let i = 0; i < 600; i++) s.record(run(`SELECT v FROM m${i} WHERE x = ${i}`));
    s.record(run(text, 3));
    s.record(run(text, 2));
    const e = s.list().find((x) => x.sample_text === text);
    assert.ok(e);
    assert.equal(e.normalized_text, 'SELECT v FROM cpu WHERE host = ? AND time > ?');
    assert.equal(e.exec_count, 3);
    assert.equal(e.total_exec_ms, 6);
    assert.equal(s.size, 601);
  });
});
