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
 *
 * The field 1.x then type-checks is the reduced one (`v + (true | false)` is `type error: v::float
 * + true`), so reduceLiteralPairs() also hands back the field with each folded pair replaced by
 * its value, computed as Reduce does (int64 wrapping, a division or remainder by an integer 0 is 0).
 */
import * as N from '../ast/nodes.js';
import type { Expr } from '../ast/nodes.js';
import { QueryError } from '../errors.js';
import { isMath } from './functions.js';
import { foldValue } from './literal-values.js';
import { rfc3339Ns } from './time-literal.js';

/**
 * A literal's class, a string's text (T or X by whether it reads as a time), and the literal node
 * it is when its value is known (not for a time, L, which the type check reads as unknown anyway).
 */
type Lit =
  | { readonly k: 'I' | 'U' | 'N' | 'B' | 'D' | 'L' | 'R'; readonly node?: Expr }
  | { readonly k: 'S'; readonly text: string; readonly node?: Expr };

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
  if (op === '+' && l.k === 'S' && r.k === 'S') return { k: 'S', text: l.text + r.text, node: N.string(l.text + r.text) };
  const out = FOLDS[`${kindOf(l)}${op}${kindOf(r)}`];
  if (out === undefined) throw new QueryError('cannot perform a binary expression on two literals');
  const node = out === 'L' || !l.node || !r.node ? undefined : foldValue(op, l.node, r.node);
  return node ? { k: out, node } : { k: out };
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
      return { k: LITERAL_KIND[e.kind], node: e };
    case 'String':
      return { k: 'S', text: e.value, node: e };
    case 'Unary': {
      const inner = reduced(e.expr);
      return inner && e.op === '-' ? fold('*', { k: 'I', node: N.integer(-1n) }, inner) : undefined;
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

/**
 * The field as 1.x type-checks it: each literal subtree replaced by the literal it folds into (a
 * pair folding into a time stays as written). Throws `cannot perform a binary expression on two
 * literals` for a pair 1.x's Reduce leaves in the field.
 */
export function reduceLiteralPairs(e: Expr): Expr {
  switch (e.kind) {
    case 'Unary':
    case 'Binary': {
      const lit = reduced(e);
      if (lit) return lit.node ?? e;
      if (e.kind === 'Unary') return { ...e, expr: reduceLiteralPairs(e.expr) };
      return { ...e, lhs: reduceLiteralPairs(e.lhs), rhs: reduceLiteralPairs(e.rhs) };
    }
    case 'Call':
      // an aggregate's arguments are its own call check's (and are not walked by reduced() either)
      return isMath(e.name.toLowerCase()) ? { ...e, args: e.args.map(reduceLiteralPairs) } : e;
    default:
      return e;
  }
}
