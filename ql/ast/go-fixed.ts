/**
 * Go's strconv.FormatFloat(v, 'f', 3, 64): how 1.x prints a float literal in its error texts
 * (`type error: code::integer | 2.500: ...`). JS toFixed rounds an exact tie away from zero,
 * Go to even (0.0625 prints 0.062), so ties are settled on the exact decimal expansion.
 */
export function goFixed3(v: number): string {
  const a = Math.abs(v);
  let text = a.toFixed(3);
  if (a < 1e21) {
    const exact = a.toFixed(100);
    const dot = exact.indexOf('.');
    if (/^50*$/.test(exact.slice(dot + 4))) {
      const truncated = exact.slice(0, dot + 4);
      if (Number(truncated[truncated.length - 1]) % 2 === 0) text = truncated;
    }
  }
  return v < 0 || Object.is(v, -0) ? `-${text}` : text;
}
