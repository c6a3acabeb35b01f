/**
 * Temporary directories owned by one test and removed when it ends, whatever the outcome
 * (pass, failed assertion, thrown error): a test suite that runs on CI runners, laptops and
 * SD-card edge devices must not fill their disks run after run. Test support only (imported
 * by *.test.ts and test helpers, never by production code); it does not import node:test, so
 * a child process that loads a test module is not turned into a test runner.
 *
 * Cleanups run last-registered first (as Go's t.Cleanup): a test that creates a directory and
 * then hands it to an engine or a server registers that close with `defer` after `tempDir`, so
 * the close runs before the directory goes. node:test's own `t.after` hooks run first-registered
 * first, so a close registered there after `tempDir` would run after the removal.
 */
import { mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whatever runs hooks when a test ends: node:test's TestContext (`t`). */
export interface CleanupScope {
  after(fn: () => unknown): void;
}

const stacks = new WeakMap<CleanupScope, Array<() => unknown>>();

/** Run `fn` when `scope` ends, before every cleanup registered earlier on the same scope. */
export function defer(scope: CleanupScope, fn: () => unknown): void {
  let stack = stacks.get(scope);
  if (stack === undefined) {
    const own: Array<() => unknown> = [];
    stacks.set(scope, own);
    scope.after(() => runCleanups(own));
    stack = own;
  }
  stack.push(fn);
}

async function runCleanups(stack: Array<() => unknown>): Promise<void> {
  const failures: unknown[] = [];
  // Every cleanup runs even if one fails, so one bad close does not leak the directories.
  for (let fn = stack.pop(); fn !== undefined; fn = stack.pop()) {
    try {
      await fn();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, 'several test cleanups failed');
}

/** Removes `dir` and everything in it; retries briefly when a just-stopped process still holds it. */
export function removeTree(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}

/** A fresh directory `<os.tmpdir()>/<prefix>XXXXXX`, removed when `scope` ends. */
export async function tempDir(scope: CleanupScope, prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  defer(scope, () => removeTree(dir));
  return dir;
}

/** `tempDir` for synchronous callers. */
export function tempDirSync(scope: CleanupScope, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  defer(scope, () => removeTree(dir));
  return dir;
}
