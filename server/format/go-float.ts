/**
 * Go's strconv.FormatFloat(v, 'f', -1, 64), which 1.x's CSV writer uses: the shortest digits
 * that round-trip (as JavaScript's String(v)), written out without an exponent.
 */
export function formatFloatF(v: number): string {
  const s = goFloatText(v);
  const e = s.indexOf('e');
  if (e < 0) return s;
  const exp = Number(s.slice(e + 1));
  let mantissa = s.slice(0, e);
  const negative = mantissa.startsWith('-');
  if (negative) mantissa = mantissa.slice(1);
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  // The decimal point sits after `point` digits of `digits`.
  const point = (dot < 0 ? mantissa.length : dot) + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${out}` : out;
}

/**
 * A finite number as Go prints a float64 (JSON and strconv alike): JavaScript's shortest
 * round-trip text, except that -0 keeps its sign (`-v` of 0, `mean(x) * -1`). Integer cells
 * never hold -0 (int64 has none; eval.ts keeps negated integer zeros at 0).
 */
export function goFloatText(v: number): string {
  return v === 0 && 1 / v < 0 ? '-0' : String(v);
}
