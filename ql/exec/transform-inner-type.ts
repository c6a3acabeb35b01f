/**
 * A transform over an aggregate takes the aggregate's output type: first(), last(), min(),
 * max(), mode(), distinct(), sample(), top() and bottom() of a string or boolean field yield
 * strings or booleans, which 1.x's transforms refuse at the start with the Go iterator type
 * (`unsupported difference iterator type: *query.booleanInterruptIterator`, over distinct()
 * `*query.booleanIntervalIterator`, over sample() `*query.booleanReduceBooleanIterator`); holt_winters()
 * says `elapsed` there (1.6.7's text). elapsed() takes any type. An aggregate that refuses the
 * type itself (min/max/top/bottom of a string) reports its own error first, as 1.x builds it first.
 */
import { FieldType } from '../../engine/index.js';
import { FORECASTS } from '../plan/functions.js';
import type { AggTransform } from './agg-calls.js';
import { ACCEPTED_TYPES } from './reducers/index.js';
import { UnsupportedTypeError } from './errors.js';
import { checkTransformInput, type TransformName } from './transform.js';

/** Aggregates whose output has their input's type. */
const TYPE_KEEPING: ReadonlySet<string> = new Set(['first', 'last', 'min', 'max', 'mode', 'distinct', 'sample', 'top', 'bottom']);

export function checkTransformInners(transforms: readonly AggTransform[], fieldTypes: ReadonlyMap<string, FieldType>): void {
  for (const t of transforms) {
    const type = fieldTypes.get(t.inner.field);
    if (type === undefined || !TYPE_KEEPING.has(t.inner.reducer)) continue;
    if (type !== FieldType.String && type !== FieldType.Boolean) continue;
    // An aggregate that refuses the type (max() of a string) fails first, with its own text.
    if (!ACCEPTED_TYPES[t.inner.reducer]?.includes(type)) continue;
    // The Go iterator 1.x hands the transform: distinct() ends in its interval iterator, sample() in its reduce iterator.
    const iterator = t.inner.reducer === 'distinct' ? 'Interval' : t.inner.reducer === 'sample' ? 'Reduce' : undefined;
    if (FORECASTS.has(t.name)) throw new UnsupportedTypeError('elapsed', type, iterator);
    checkTransformInput(t.name as TransformName, type, iterator);
  }
}
