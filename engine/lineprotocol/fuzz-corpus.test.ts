/**
 * Test-only helper (no tests here): the seeded line corpus of the line-protocol fuzz tests,
 * shared with the parse-worker differential test.
 */
import { mulberry32 } from '../random.js';

export const SEEDS = [
  'cpu,host=a,region=us\\ west usage=1.5,idle=2i,ok=t,msg="hi \\"x\\"" 1451606400000000000',
  ' cpu value=2',
  'm,t=1 u=18446744073709551615u,i=-9223372036854775808i 1',
  'weather,loc=東京 temp=-1.5E-3,s="a\nb" -1',
  'a\\,b,c\\=d=e\\ f g\\ h=TRUE,x=.5,y=5.',
  '# comment',
  'x y="unterminated',
  'cpu,b=2,a=1 v=1 9223372036854775806',
];
const ALPHABET = [',', '=', ' ', '"', '\\', '\n', '\r', '\t', '#', '-', '.', 'e', 'E', 'i', 'u', 't', 'f', 'T', 'F', '0', '1', '9', 'a', 'N', 'é', '😀', '\0', '+'];

export function mutate(line: string, rnd: () => number): string {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
  let s = line;
  const ops = 1 + Math.floor(rnd() * 4);
  for (let k = 0; k < ops; k++) {
    const at = Math.floor(rnd() * (s.length + 1));
    switch (Math.floor(rnd() * 6)) {
      case 0:
        s = s.slice(0, at) + pick(ALPHABET) + s.slice(at);
        break;
      case 1:
        s = s.slice(0, at) + s.slice(at + 1);
        break;
      case 2:
        s = s.slice(0, at) + pick(ALPHABET) + s.slice(at + 1);
        break;
      case 3:
        s = s.slice(0, at) + s.slice(Math.floor(rnd() * s.length), at) + s.slice(at);
        break;
      case 4:
        s = s.slice(0, at);
        break;
      default:
        s = s + pick(SEEDS);
    }
  }
  return s;
}

export function randomLine(rnd: () => number): string {
  let s = '';
  const n = Math.floor(rnd() * 40);
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(rnd() * ALPHABET.length)];
  return s;
}

/** `count` lines: 10 % random, the rest mutated seeds. */
export function corpusLines(rnd: () => number, count: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(rnd() < 0.1 ? randomLine(rnd) : mutate(SEEDS[Math.floor(rnd() * SEEDS.length)]!, rnd));
  return lines;
}
