/**
 * An empty array whose elements kind already holds objects (V8's PACKED_ELEMENTS).
 *
 * Why: a `[]` literal starts as an array of small integers and changes its hidden class on the
 * first object or string stored; V8 then makes later arrays from the same literal with the new
 * class. Code optimised while the hot path saw one of the two classes is thrown away when the
 * other arrives ("wrong map", "not a Smi" deopts of `parseInto` and `applyRun` in a cold ingest,
 * perf/README.md section 17). An array made here has the class the first push would give it.
 */
export function objectArray<T>(): T[] {
  const a: (T | undefined)[] = [undefined];
  a.length = 0;
  return a as T[];
}
