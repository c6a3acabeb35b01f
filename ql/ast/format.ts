/** Number formatting shared by the printer and parameter binding. */

/** Shortest round-trip decimal without exponent, as Go's FormatFloat(v, 'f', -1, 64). */
export function plainFloat(v: number): string {
  const s = String(Math.abs(v));
  const sign = v < 0 || Object.is(v, -0) ? '-' : '';
  const m = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return sign + s;
  const digits = (m[1] ?? '') + (m[2] ?? '');
  const point = (m[1] ?? '').length + Number(m[3]);
  if (point <= 0) return sign + '0.' + '0'.repeat(-point) + digits;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return sign + digits.slice(0, point) + '.' + digits.slice(point);
}

/** A float literal that reads back as a float: always has a `.` (`5.0`, `0.25`, `-1e-7` → `-0.0000001`). */
export function floatLiteral(v: number): string {
  const s = plainFloat(v);
  return s.includes('.') ? s : s + '.0';
}
