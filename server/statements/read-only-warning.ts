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

/** The warnings of a batch sent with GET, by statement index; undefined when there is nothing to warn about. */
export function readOnlyWarnings(stmts: readonly Statement[], scope: WarningScope): Map<number, string> | undefined {
  let out: Map<number, string> | undefined;
  for (let i = 0; i < stmts.length; i++) {
    const s = stmts[i]!;
    if (readsOnly(s)) continue;
    const text = printAs1x(() => printStatement(normalized(s, scope), { redactPasswords: true }));
    (out ??= new Map()).set(i, `deprecated use of '${text}' in a read only context, please use a POST request instead`);
  }
  return out;
}
