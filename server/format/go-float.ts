/**
 * Go's strconv.FormatFloat(v, 'f', -1, 64), which 1.x's CSV writer uses: the shortest digits
 * that round-trip (as JavaScript's String(v)), written out without an exponent.
 */
export function formatFloatF(v: number): string {
  const s = String(v);
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
