/**
 * Statement summaries (spec "GET or DELETE /api/v1/statements", "Statement summary entry"):
 * per digest of the normalized text, how often it ran, how long it took, its last error.
 *
 * Bounded: at most `statement_summary.max_entries` digests, evicting the least recently seen
 * (a Map keeps insertion order; a hit moves its entry to the end). Memory per entry is also
 * bounded: texts and error messages are cut at MAX_TEXT_CHARS.
 *
 * Nothing sensitive is stored: the normalized text has no literals at all, the sample keeps
 * literals except passwords (normalize.ts), and error messages lose any password value of
 * their statement. With `enabled` false nothing is recorded and `list()` is empty.
 *
 * Cheap for a new text of a known shape (TSBS and dashboards send a new host or time window
 * on every request; recording runs on the main thread after the answer is sent, so a
 * sequential client's next request waits for it): an execution that comes with its shape
 * (shape.ts) and its text as a function takes the normalized text and digest of the shape's
 * first execution, and its sample is printed only when the summary is read. Only a new shape
 * prints, normalizes and hashes. Memory stays bounded: one unprinted sample per slot, and
 * shapes are at most MAX_SHAPE_CHARS long.
 */
import type { StatementSummarySection } from '../options.js';
import { normalizeStatement, redactPasswords, redactSecretsIn, statementDigest } from './normalize.js';
import { MAX_SHAPE_CHARS, statementShapes } from './shape.js';

/** Longest stored text (normalized text, sample, error); longer ones end with `…`. */
export const MAX_TEXT_CHARS = 4096;

export interface StatementExecution {
  /**
   * Statement text (printed from the AST, or the raw request text when it did not parse), or a
   * function printing it, which may be kept and called when the summary is read: it must not
   * hold a password.
   */
  readonly text: string | (() => string);
  /** The statement's shape (shape.ts): executions of one shape have one normalized text. */
  readonly shape?: string | undefined;
  readonly durationMs: number;
  readonly error?: string | undefined;
  /** Epoch milliseconds at the end of the execution. */
  readonly at: number;
}

/** One element of GET /api/v1/statements. */
export interface StatementSummaryEntry {
  readonly digest: string;
  readonly normalized_text: string;
  /** The most recent text with this digest, passwords redacted. */
  readonly sample_text: string;
  readonly exec_count: number;
  readonly error_count: number;
  readonly total_exec_ms: number;
  readonly avg_exec_ms: number;
  readonly max_exec_ms: number;
  /** Error of the most recent failed execution (null when none failed). */
  readonly last_error: string | null;
  readonly first_seen: string;
  readonly last_seen: string;
}

interface Slot {
  readonly digest: string;
  readonly normalized: string;
  /** A function: the latest execution's text, printed (then redacted and cut) when read. */
  sample: string | (() => string);
  count: number;
  errors: number;
  totalMs: number;
  maxMs: number;
  lastError: string | null;
  readonly firstSeen: number;
  lastSeen: number;
}

function cut(text: string): string {
  return text.length <= MAX_TEXT_CHARS ? text : `${text.slice(0, MAX_TEXT_CHARS - 1)}…`;
}

const round3 = (ms: number) => Math.round(ms * 1000) / 1000;

/** What every text of one shape shares. */
interface ShapeForms {
  readonly normalized: string;
  readonly digest: string;
}

/** What record() derives from a statement text alone. */
interface TextForms extends ShapeForms {
  readonly sample: string;
}

/**
 * Texts whose forms are remembered: a repeated statement (the common case: dashboards, CQs)
 * skips tokenizing twice and hashing, which cost about as much as running a small query.
 */
const MAX_REMEMBERED_TEXTS = 256;

/** Shapes whose forms are remembered (keys at most MAX_SHAPE_CHARS long). */
const MAX_REMEMBERED_SHAPES = 1024;

const textOf = (text: string | (() => string)): string => (typeof text === 'string' ? text : text());

export class StatementSummaries {
  readonly #slots = new Map<string, Slot>();
  readonly #forms = new Map<string, TextForms>();
  readonly #shapes = new Map<string, ShapeForms>();
  /** Request text → its statements' shapes (null: it has none), for repeated requests. */
  readonly #requestShapes = new Map<string, readonly string[] | null>();

  constructor(private readonly options: Pick<StatementSummarySection, 'enabled' | 'max_entries'>) {}

  get enabled(): boolean {
    return this.options.enabled;
  }

  get size(): number {
    return this.#slots.size;
  }

  record(run: StatementExecution): void {
    if (!this.options.enabled) return;
    const unprinted = typeof run.text === 'string' ? undefined : run.text;
    // A known shape with its text unprinted: nothing to print, normalize or hash now.
    const known = unprinted === undefined || run.shape === undefined ? undefined : this.#shapes.get(run.shape);
    let text: string | undefined;
    let forms: ShapeForms;
    let sample: string | (() => string);
    if (known !== undefined && unprinted !== undefined) {
      forms = known;
      sample = unprinted;
    } else {
      text = textOf(run.text);
      const textForms = this.#formsOf(text);
      forms = textForms;
      sample = textForms.sample;
      if (run.shape !== undefined && run.shape.length <= MAX_SHAPE_CHARS) {
        if (this.#shapes.size >= MAX_REMEMBERED_SHAPES) this.#shapes.clear();
        this.#shapes.set(run.shape, { normalized: textForms.normalized, digest: textForms.digest });
      }
    }
    const { normalized, digest } = forms;
    let slot = this.#slots.get(digest);
    if (slot) {
      this.#slots.delete(digest);
    } else {
      slot = { digest, normalized: cut(normalized), sample: '', count: 0, errors: 0, totalMs: 0, maxMs: 0, lastError: null, firstSeen: run.at, lastSeen: run.at };
    }
    this.#slots.set(digest, slot);
    slot.sample = sample;
    slot.count++;
    slot.totalMs += run.durationMs;
    slot.maxMs = Math.max(slot.maxMs, run.durationMs);
    slot.lastSeen = run.at;
    if (run.error !== undefined) {
      slot.errors++;
      slot.lastError = cut(redactSecretsIn(run.error, text ?? textOf(run.text)));
    }
    while (this.#slots.size > this.options.max_entries) {
      const oldest = this.#slots.keys().next();
      if (oldest.done) break;
      this.#slots.delete(oldest.value);
    }
  }

  /** statementShapes(requestText), remembered: a repeated request does not scan its text again. */
  shapesOf(requestText: string): readonly string[] | undefined {
    let shapes = this.#requestShapes.get(requestText);
    if (shapes === undefined) {
      shapes = statementShapes(requestText) ?? null;
      if (requestText.length <= MAX_TEXT_CHARS) {
        if (this.#requestShapes.size >= MAX_REMEMBERED_TEXTS) this.#requestShapes.clear();
        this.#requestShapes.set(requestText, shapes);
      }
    }
    return shapes ?? undefined;
  }

  #formsOf(text: string): TextForms {
    const known = this.#forms.get(text);
    if (known !== undefined) return known;
    const normalized = normalizeStatement(text);
    const redacted = redactPasswords(text);
    const forms = { normalized, digest: statementDigest(normalized), sample: cut(redacted) };
    // A text that carries a password is never a key here: the memo would keep the password.
    if (text.length <= MAX_TEXT_CHARS && redacted === text) {
      if (this.#forms.size >= MAX_REMEMBERED_TEXTS) this.#forms.clear();
      this.#forms.set(text, forms);
    }
    return forms;
  }

  /** Most recently seen first. */
  list(): StatementSummaryEntry[] {
    if (!this.options.enabled) return [];
    return [...this.#slots.values()].reverse().map((s) => ({
      digest: s.digest,
      normalized_text: s.normalized,
      sample_text: typeof s.sample === 'string' ? s.sample : (s.sample = cut(redactPasswords(s.sample()))),
      exec_count: s.count,
      error_count: s.errors,
      total_exec_ms: round3(s.totalMs),
      avg_exec_ms: round3(s.totalMs / s.count),
      max_exec_ms: round3(s.maxMs),
      last_error: s.lastError,
      first_seen: new Date(s.firstSeen).toISOString(),
      last_seen: new Date(s.lastSeen).toISOString(),
    }));
  }

  clear(): void {
    this.#slots.clear();
  }
}
