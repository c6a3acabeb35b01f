/**
 * 1.x runs a statement that writes when it comes with GET, and warns about it in the result's
 * messages. The warning quotes the statement as 1.x's executor holds it: normalized (the
 * measurements of SELECT ... INTO qualified with the request's database and `rp`, else the
 * database's default policy; a continuous query's with its own database and `rp`) and printed
 * as 1.x's String() does (float literals with three decimals), passwords as `[REDACTED]`. DELETE is never warned about (1.6.7's executor adds no warning
 * for it), the SHOW statements and plain SELECTs read only.
 */
import { printAs1x, printStatement, qualifySelectWith, type DefaultRp, type Statement } from '../../ql/index.js';

export interface WarningScope {
  readonly db: string;
  readonly rp: string;
  readonly defaultRp: DefaultRp;
}

function readsOnly(s: Statement): boolean {
  if (s.kind === 'Select') return s.target === null;
  return s.kind === 'Explain' || s.kind === 'Delete' || s.kind.startsWith('Show');
}

function normalized(s: Statement, scope: WarningScope): Statement {
  if (s.kind === 'Select') return qualifySelectWith(s, scope.db, scope.rp, scope.defaultRp);
  if (s.kind === 'CreateContinuousQuery') return { ...s, source: qualifySelectWith(s.source, s.database, scope.rp, scope.defaultRp) };
  return s;
}

/** The warning of each statement of a batch sent with GET that writes, by statement index. */
export interface WarningLookup {
  get(statementId: number): string | undefined;
}

/**
 * The warnings of a batch sent with GET; undefined when there is nothing to warn about. Each is
 * printed when asked for, i.e. when its statement has run: 1.x normalizes a statement just before
 * executing it, so a default policy set earlier in the batch qualifies a later CQ's INTO.
 */
export function readOnlyWarnings(stmts: readonly Statement[], scope: WarningScope): WarningLookup | undefined {
  if (stmts.every(readsOnly)) return undefined;
  const printed = new Map<number, string>();
  return {
    get(i) {
      const s = stmts[i];
      if (s === undefined || readsOnly(s)) return undefined;
      let text = printed.get(i);
      if (text === undefined) {
        const statement = printAs1x(() => printStatement(normalized(s, scope), { redactPasswords: true }));
        printed.set(i, (text = `deprecated use of '${statement}' in a read only context, please use a POST request instead`));
      }
      return text;
    },
  };
}
