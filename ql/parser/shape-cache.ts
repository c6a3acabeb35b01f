/**
 * A parse cache keyed by a text's shape: the text with the spans of its string, integer, number
 * and duration tokens replaced by a mark of their type. Tools such as TSBS and dashboards send
 * the same statement over and over with other literals (a host name, a time window), so almost
 * every text is new to the exact-text cache (./parse-cache.ts) while its shape is not. A hit
 * rebinds the new text's literal values into a copy of the shape's parse instead of running the
 * Parsimmon grammar again.
 *
 * Why this gives exactly the fresh parse of the new text: the new text equals the template's
 * text outside its literal spans, so the grammar would walk the same tokens and take the same
 * decisions, except where it reads a literal's value. Those reads are of two kinds:
 * - the expression parser turns the token into a node (./literal.ts, with a leading `-` folded
 *   in) and keeps it in the tree. The template records which nodes came from which token
 *   (./literal-origins.ts); a hit builds those nodes from the new tokens with the same function,
 *   which also throws where a fresh parse would (int64 overflow, a bad duration: on any throw
 *   the text is parsed afresh, so the error is the uncached one);
 * - anything else (LIMIT's integer, fill()'s value, tz()'s zone, digits or quotes inside a
 *   regex, a node the grammar inspected and dropped): such tokens are not rebound, they must
 *   match the template's text exactly, else the text is parsed afresh.
 * Only all-SELECT texts become templates (no passwords, and only the SELECT grammar has to be
 * argued about). Subtrees without a rebound literal are shared with the template (immutable AST,
 * as the exact-text cache shares whole trees), so their per-node memos carry over.
 */
import { LruMap } from '../../engine/index.js';
import * as N from '../ast/nodes.js';
import type { Expr, Field, SelectStatement, Source } from '../ast/nodes.js';
import type { Statement } from '../ast/statements.js';
import { literalOf, negate } from './literal.js';
import { withLiteralOrigins, type LiteralOrigin } from './literal-origins.js';
import { parseQuery } from './query.js';
import { IDENT_CHARS, isDigit, isLetter, scanRaw, skipWs } from './scanner.js';
import type { Token, TokType } from './scanner.js';

/** Token types whose value may differ between texts of one shape, with their mark in the key. */
const MARKS: Partial<Record<TokType, string>> = { STRING: '\u0000s', INTEGER: '\u0000i', NUMBER: '\u0000n', DURATIONVAL: '\u0000d' };

interface Shape {
  readonly key: string;
  /** The text's string, integer, number and duration tokens, in order. */
  readonly literals: readonly Token[];
}

/**
 * One scan of `text`; null when the text holds a NUL (the key's mark character). Only literal
 * tokens are built (scanRaw); words and operators are stepped over, since only where literals
 * start and end matters: a word is read to its end as scanRaw reads it, and stepping one
 * character at a time over operators finds the same token starts (the second character of a
 * two-character operator, `=~ != <> <= >= !~ ::`, starts no literal, quote or comment).
 */
export function shapeOf(text: string): Shape | null {
  if (text.includes('\u0000')) return null;
  const literals: Token[] = [];
  let key = '';
  let copied = 0;
  let i = 0;
  const n = text.length;
  for (;;) {
    const j = skipWs(text, i);
    if (j >= n) break;
    const c = text.charCodeAt(j);
    if (isLetter(c) || c === 95) {
      i = j + 1;
      while (IDENT_CHARS[text.charCodeAt(i)] === 1) i++;
      continue;
    }
    const literalStart = isDigit(c) || c === 39 || c === 34 || c === 36 || (c === 46 && isDigit(text.charCodeAt(j + 1)));
    if (!literalStart) {
      // An unterminated block comment: the rest stays in the key verbatim.
      if (c === 47 && text.charCodeAt(j + 1) === 42) break;
      i = j + 1;
      continue;
    }
    const t = scanRaw(text, j);
    const mark = MARKS[t.type];
    if (mark !== undefined) {
      key += text.slice(copied, t.start) + mark;
      copied = t.end;
      literals.push(t);
    }
    if (t.end <= j) break;
    i = t.end;
  }
  return { key: key + text.slice(copied), literals };
}

interface Slot {
  /** Index into the shape's literals. */
  readonly index: number;
  readonly negated: boolean;
  /** The template's text of the token: the same text gives the template's node. */
  readonly raw: string;
}

interface Template {
  readonly statements: readonly Statement[];
  readonly literalCount: number;
  /** Literal nodes of the tree rebuilt from the new text's tokens. */
  readonly slots: ReadonlyMap<object, Slot>;
  /** Nodes and arrays with a slot below them (rebuilt); every other subtree is shared. */
  readonly dirty: ReadonlySet<object>;
  /** Literal tokens read other than as a kept node: they must be the same text. */
  readonly fixed: ReadonlyArray<{ readonly index: number; readonly raw: string }>;
}

/** Node kinds a rebind knows how to rebuild (all a SELECT's literals can sit under). */
const REBUILT = new Set(['Select', 'SubQuery', 'Field', 'Binary', 'Unary', 'Call']);

class NotATemplate extends Error {}

/** The template of `text`'s fresh parse; null when some literal's use is not understood. */
function templateOf(text: string, statements: readonly Statement[], origins: ReadonlyMap<Expr, LiteralOrigin>, shape: Shape): Template | null {
  if (!statements.every((s) => s.kind === 'Select')) return null;
  const byStart = new Map<number, number>();
  shape.literals.forEach((t, k) => byStart.set(t.start, k));
  const slots = new Map<object, Slot>();
  const used = new Set<number>();
  const dirty = new Set<object>();
  const visit = (v: unknown): boolean => {
    if (typeof v !== 'object' || v === null) return false;
    const origin = origins.get(v as Expr);
    if (origin !== undefined && MARKS[origin.type] !== undefined) {
      const index = byStart.get(origin.start);
      const t = index === undefined ? undefined : shape.literals[index];
      if (index === undefined || t === undefined || t.end !== origin.end || t.type !== origin.type || used.has(index) || slots.has(v)) {
        throw new NotATemplate();
      }
      used.add(index);
      slots.set(v, { index, negated: origin.negated, raw: text.slice(t.start, t.end) });
      return true;
    }
    let below = false;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (visit(child)) below = true;
    if (below) {
      if (!Array.isArray(v) && !REBUILT.has((v as { kind?: string }).kind ?? '')) throw new NotATemplate();
      dirty.add(v);
    }
    return below;
  };
  try {
    visit(statements);
  } catch (e) {
    // A tree too deep to walk (a long operator chain) is parsed every time, as before.
    if (e instanceof NotATemplate || e instanceof RangeError) return null;
    throw e;
  }
  // Without a slot only the same text matches: the exact-text cache's job.
  if (slots.size === 0) return null;
  const fixed = shape.literals.flatMap((t, index) => (used.has(index) ? [] : [{ index, raw: text.slice(t.start, t.end) }]));
  return { statements, literalCount: shape.literals.length, slots, dirty, fixed };
}

/** `text`'s statements from the template; null when they must be parsed afresh. */
function rebind(tp: Template, text: string, shape: Shape): Statement[] | null {
  const { literals } = shape;
  if (literals.length !== tp.literalCount) return null;
  const sameText = (t: Token | undefined, raw: string): boolean => t !== undefined && t.end - t.start === raw.length && text.startsWith(raw, t.start);
  for (const { index, raw } of tp.fixed) if (!sameText(literals[index], raw)) return null;
  // Each rebuild returns its input when nothing below it changed, so unchanged subtrees stay shared.
  const expr = (e: Expr): Expr => {
    const slot = tp.slots.get(e);
    if (slot !== undefined) {
      const t = literals[slot.index];
      if (sameText(t, slot.raw)) return e;
      const lit = t === undefined ? null : literalOf(text, t);
      const v = lit === null || !slot.negated ? lit : negate(lit);
      if (v === null) throw new NotATemplate();
      return v;
    }
    if (!tp.dirty.has(e)) return e;
    switch (e.kind) {
      case 'Binary': {
        const lhs = expr(e.lhs);
        const rhs = expr(e.rhs);
        return lhs === e.lhs && rhs === e.rhs ? e : N.binary(e.op, lhs, rhs);
      }
      case 'Unary': {
        const inner = expr(e.expr);
        return inner === e.expr ? e : N.unary(e.op, inner);
      }
      case 'Call': {
        const args = list(e.args, expr);
        return args === e.args ? e : N.call(e.name, args);
      }
      default: throw new NotATemplate();
    }
  };
  const list = <T extends object>(xs: readonly T[], each: (x: T) => T): readonly T[] => {
    if (!tp.dirty.has(xs)) return xs;
    const out = xs.map(each);
    return out.every((x, k) => x === xs[k]) ? xs : out;
  };
  const field = (f: Field): Field => {
    const e = tp.dirty.has(f) ? expr(f.expr) : f.expr;
    return e === f.expr ? f : N.field(e, f.alias);
  };
  const source = (s: Source): Source => {
    if (!tp.dirty.has(s) || s.kind !== 'SubQuery') return s;
    const inner = select(s.statement);
    return inner === s.statement ? s : N.subQuery(inner);
  };
  const select = (s: SelectStatement): SelectStatement => {
    if (!tp.dirty.has(s)) return s;
    const fields = list(s.fields, field);
    const sources = list(s.sources, source);
    const condition = s.condition === null ? null : expr(s.condition);
    const dimensions = list(s.dimensions, expr);
    if (fields === s.fields && sources === s.sources && condition === s.condition && dimensions === s.dimensions) return s;
    return { ...s, fields, sources, condition, dimensions };
  };
  try {
    return tp.statements.map((s) => (s.kind === 'Select' ? select(s) : s));
  } catch {
    // A literal that does not convert (int64 overflow, a bad duration): the fresh parse throws its error.
    return null;
  }
}

export class ShapeCache {
  readonly #templates: LruMap<string, Template>;
  #hits = 0;

  constructor(readonly maxEntries: number) {
    this.#templates = new LruMap(maxEntries);
  }

  get size(): number {
    return this.#templates.size;
  }

  /** Texts answered by rebinding a template (tests check that they exercise it). */
  get hits(): number {
    return this.#hits;
  }

  /** parseQuery(text) (no parameters): from a template of the same shape when it can be. */
  parse(text: string): Statement[] {
    const shape = shapeOf(text);
    if (shape === null) return parseQuery(text);
    const tp = this.#templates.get(shape.key);
    const hit = tp === undefined ? null : rebind(tp, text, shape);
    if (hit !== null) {
      this.#hits++;
      return hit;
    }
    const { value, origins } = withLiteralOrigins(() => parseQuery(text));
    const made = templateOf(text, value, origins, shape);
    if (made !== null) this.#templates.set(shape.key, made);
    return value;
  }
}
