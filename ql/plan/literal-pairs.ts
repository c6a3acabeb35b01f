/**
 * 1.x reduces each field (influxql.Reduce) before it compiles it, and compiling refuses a binary
 * expression whose two sides are still literals: `cannot perform a binary expression on two
 * literals`. Only the pairs Reduce folds disappear (`1 + 1`, `'a' + 'b'`, `1h * 2`), and a field
 * left with no variable is then `field must contain at least one variable`; any other pair of
 * literals (`'a' + 1`, `1h + 1`, `true + 1`, `2 * 1h`) is the first error, also beside a
 * variable (`v + (1 + 'a')`) or inside a math call (`abs('a' + 1)`). An aggregate's arguments are
 * checked by the call first (`max('a' + 1)`: `expected field argument in max()`), so they are
 * not walked. 1.x's parser reads `-(x)` as `-1 * x` (a negative number, `-1h`, is one literal).
 *
 * The folding pairs, measured on influxd 1.6.7 over integer (I), unsigned (U), float (N), string
 * (X), time string (T), boolean (B) and duration (D) literals under + - * / % & | ^ (392
 * statements, 70 fold); a pair that folds into a time (L: 1.x's TimeLiteral) then folds as
 * influxql's reduceBinaryExprTimeLHS does.
 */
import type { Expr } from '../ast/nodes.js';
import { QueryError } from '../errors.js';
import { isMath } from './functions.js';
import { rfc3339Ns } from './time-literal.js';

/** A literal's class, and a string's text (T or X by whether it reads as a time). */
type Lit = { readonly k: 'I' | 'U' | 'N' | 'B' | 'D' | 'L' | 'R' } | { readonly k: 'S'; readonly text: string };

type Kind = 'I' | 'U' | 'N' | 'B' | 'D' | 'L' | 'R' | 'T' | 'X';
/** What a folded pair is (strings come only from concatenation, below). */
type Folded = 'I' | 'U' | 'N' | 'B' | 'D' | 'L';

const FOLDS: Readonly<Record<string, Folded>> = {
  ...pairs('I', '+-*%&|^', 'I', 'I'), 'I/I': 'N',
  ...pairs('I', '+-*/%', 'N', 'N'), ...pairs('N', '+-*/%', 'I', 'N'), ...pairs('N', '+-*/%', 'N', 'N'),
  ...pairs('I', '+-*/%', 'U', 'U'), ...pairs('U', '+-*/%', 'I', 'U'), ...pairs('U', '+-*/%', 'U', 'U'),
  ...pairs('N', '+-*/%', 'U', 'N'), ...pairs('U', '+-*/%', 'N', 'N'),
  'I+T': 'L', 'I+D': 'L', 'I-D': 'L', 'I+L': 'L',
  'T+I': 'L', 'T-I': 'L', 'T+D': 'L', 'T-D': 'L', 'T-T': 'D', 'T-L': 'D',
  'D+D': 'D', 'D-D': 'D', 'D*I': 'D', 'D/I': 'D', 'D*N': 'D', 'D/N': 'D', 'D+T': 'L', 'D+L': 'L',
  'L+D': 'L', 'L-D': 'L', 'L+I': 'L', 'L-I': 'L', 'L-L': 'D', 'L-T': 'D',
  ...pairs('B', '&|^', 'B', 'B'),
};

function pairs(l: Kind, ops: string, r: Kind, out: Folded): Record<string, Folded> {
  return Object.fromEntries([...ops].map((op) => [`${l}${op}${r}`, out]));
}

function kindOf(lit: Lit): Kind {
  if (lit.k !== 'S') return lit.k;
  return rfc3339Ns(lit.text) === undefined ? 'X' : 'T';
}

/** What Reduce makes of `l op r`; throws 1.x's error where it leaves the pair. */
function fold(op: string, l: Lit, r: Lit): Lit {
  // strings concatenate (a time string too), into a string read again as a time or not
  if (op === '+' && l.k === 'S' && r.k === 'S') return { k: 'S', text: l.text + r.text };
  const out = FOLDS[`${kindOf(l)}${op}${kindOf(r)}`];
  if (out === undefined) throw new QueryError('cannot perform a binary expression on two literals');
  return { k: out };
}

/** The fold kind of each literal node but strings (which carry their text). */
const LITERAL_KIND = { Integer: 'I', Unsigned: 'U', Number: 'N', Boolean: 'B', Duration: 'D', Regex: 'R' } as const;

/** The literal `e` reduces to, undefined when it holds a variable or a call. */
function reduced(e: Expr): Lit | undefined {
  switch (e.kind) {
    case 'Integer':
    case 'Unsigned':
    case 'Number':
    case 'Boolean':
    case 'Duration':
    case 'Regex':
      return { k: LITERAL_KIND[e.kind] };
    case 'String':
      return { k: 'S', text: e.value };
    case 'Unary': {
      const inner = reduced(e.expr);
      return inner && e.op === '-' ? fold('*', { k: 'I' }, inner) : undefined;
    }
    case 'Binary': {
      const l = reduced(e.lhs);
      const r = reduced(e.rhs);
      return l && r ? fold(e.op, l, r) : undefined;
    }
    case 'Call':
      if (isMath(e.name.toLowerCase())) for (const a of e.args) reduced(a);
      return undefined;
    default:
      return undefined;
  }
}

/** Throws `cannot perform a binary expression on two literals` for a pair 1.x's Reduce leaves in the field. */
export function refuseLiteralPairs(e: Expr): void {
  reduced(e);
}
