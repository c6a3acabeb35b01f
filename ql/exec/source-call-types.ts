/**
 * 1.x builds the iterators of every source of a statement before it sends a row, so a call
 * whose field one source holds as a type it refuses (`stddev(message) FROM diskio, events`)
 * fails the statement first. Strata reads the sources one after the other: checked up front,
 * a chunked answer does not stream another source's series and then lose the error.
 */
import type { AggCall, AggTransform } from './agg-calls.js';
import { UnsupportedTypeError } from './errors.js';
import { ACCEPTED_TYPES } from './reducers/index.js';
import type { MeasurementSource } from './source.js';
import { checkTransformInners } from './transform-inner-type.js';

/** Throws the error runAggregateGroup would throw for some group of one of `sources`. */
export function checkSourceCallTypes(calls: readonly AggCall[], transforms: readonly AggTransform[], sources: readonly MeasurementSource[]): void {
  for (const s of sources) {
    const types = s.fieldTypes();
    checkTransformInners(transforms, types);
    for (const c of calls) {
      const t = types.get(c.field);
      if (t !== undefined && ACCEPTED_TYPES[c.reducer]?.includes(t) === false) throw new UnsupportedTypeError(c.reducer === 'count_distinct' ? 'distinct' : c.reducer, t);
    }
  }
}
