/**
 * InfluxDB 1.x line protocol → Points, with 1.x partial-write semantics: good lines become
 * points, bad lines become LineErrors carrying the 1.x reason text, nothing throws.
 * Reference: models/points.go of InfluxDB 1.x (rules and texts re-implemented, not copied).
 *
 * Lines: split on `\n` except inside a quoted string value; a trailing `\r` is dropped (CRLF);
 * leading spaces, tabs and NULs are skipped (the influx CLI sends ` cpu v=1`); blank lines and
 * lines starting with `#` are ignored; the last line needs no newline.
 *
 * Deliberate differences from 1.x, all on input 1.x mangles or rejects anyway: CRLF accepted;
 * a backslash before a newline does not join lines; a `#` line ends at its newline even when
 * it holds a quote; text glued to a closing quote is an error; invalid UTF-8
 * becomes U+FFFD; duplicate field keys keep the last value even when types differ (1.x then
 * reports a type conflict); `123u` is accepted (decisions.md).
 *
 * Speed (this is the ingest hot path): the body is decoded to a string once (latin1 when it
 * is pure ASCII, else UTF-8), and the per-character reads go to its code units (code-units.ts:
 * an ASCII body's own bytes). The key section predicted from the line before (KeyInfo.next)
 * and the field keys of the line before are compared with the line's bytes four at a time
 * (byte-key.ts); any other key is looked up in a KeyCache by its raw text, so a known series
 * costs one hash and no tag work. No regex and no BigInt run for ordinary lines.
 * perf/LINEPROTOCOL.md and section 19 of perf/README.md have the figures.
 */
import { constants, isAscii } from 'node:buffer';
import { ByteKey, matchesKey } from './byte-key.js';
import { asciiUnits, codeUnitsOf, type CodeUnits } from './code-units.js';
import { LineProtocolError } from './errors.js';
import type { Point, Precision, Tag } from '../point.js';
import { FieldSet } from './field-set.js';
import { parseFields } from './fields.js';
import { clearInterned } from './interning.js';
import { KeyCache, type KeyInfo, MAX_KEY_LENGTH, parseKey } from './key.js';
import { parsePlainTimestamp, parseTimestamp, type TimeSlot, truncateToPrecision } from './timestamp.js';

export interface LineError {
  /** The line as 1.x prints it: leading whitespace and the line ending removed. */
  readonly line: string;
  readonly reason: string;
  /**
   * Set when the line is well-formed but refused: 1.x's shard drops these after parsing and
   * reports them as `partial write: <reason> dropped=N`, without `unable to parse '<line>'`.
   * `time-tag` (a tag named `time`) is dropped before the series is indexed; `time-field`
   * (only fields named `time`) after, so 1.x still indexes its series (`series` below).
   * `unlisted-fields` is no error to 1.x (no reason, the write succeeds): its fields go under a
   * name no statement reads (KeyInfo.fieldMeasurement), only its series is seen.
   */
  readonly refused?: 'time-tag' | 'time-field' | 'unlisted-fields';
  /** The series of a `time-field` or `unlisted-fields` line, which 1.x indexes although no point of it is read. */
  readonly series?: RefusedSeries;
  /** The time (s) of a `time-tag` refusal: 1.x creates the point's shard before refusing it. */
  readonly sec?: number;
}

export interface RefusedSeries {
  readonly seriesKey: string;
  readonly measurement: string;
  readonly tags: readonly Tag[];
  /** The line's time (s): 1.x creates the shard for it before refusing the point. */
  readonly sec: number;
  /** The name 1.x gives the point when it is not `measurement` (KeyInfo.fieldMeasurement): its tag-value limit counts under it. */
  readonly fieldMeasurement?: string;
}

export interface ParseResult {
  readonly points: Point[];
  readonly errors: LineError[];
}

export interface ParseOptions {
  readonly precision: Precision;
  /** Time for lines without a timestamp (usually the server's now), truncated to precision. */
  readonly defaultSec: number;
  readonly defaultNsec: number;
}

/** The error text 1.x puts in a write response for one bad line. */
export function describeLineError(e: LineError): string {
  return e.refused ? e.reason : `unable to parse '${e.line}': ${e.reason}`;
}

/**
 * Parsed keys of recently written series, shared by all calls. 50,000 keys cost roughly
 * 40 MB for TSBS-like keys (10 tags) and much less for short ones; beyond that many active
 * series the parser still works, at the cold-key speed (perf/LINEPROTOCOL.md).
 */
let sharedCache = new KeyCache(50_000);

/** Resizes the series-key cache (engine option); drops its current content. */
export function setKeyCacheCapacity(keys: number): void {
  sharedCache = new KeyCache(keys);
}

/** Forgets cached series keys and shared strings (tests; memory pressure). */
export function clearKeyCache(): void {
  sharedCache.clear();
  clearInterned();
}

/**
 * Decodes a write body once; pure-ASCII bodies take the cheaper latin1 path (same text).
 * Bodies beyond V8's string limit (~512 MiB) are refused as a whole; the server caps bodies
 * far below that.
 */
export function decodeBody(body: Uint8Array): string {
  return decodeUnits(body).s;
}

/** decodeBody, with the text's code units (an ASCII body's bytes are its own). */
function decodeUnits(body: Uint8Array): CodeUnits {
  if (body.byteLength > constants.MAX_STRING_LENGTH) {
    throw new LineProtocolError(`request body of ${body.byteLength} bytes is too large to parse`);
  }
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return isAscii(buf) ? asciiUnits(buf.toString('latin1'), buf) : codeUnitsOf(buf.toString('utf8'));
}

export function parseLineProtocol(body: Uint8Array, opts: ParseOptions): ParseResult {
  return parseLineProtocolText(decodeBody(body), opts);
}

const NL = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const BS = 0x5c;
const QUOTE = 0x22;

const isBlank = (c: number): boolean => c === SPACE || c === TAB || c === 0;

/** Same as parseLineProtocol, for text already decoded (CLI import, tests). */
export function parseLineProtocolText(s: string, opts: ParseOptions): ParseResult {
  const points: Point[] = [];
  const errors: LineError[] = [];
  const sink: PointSink = {
    addLine(info, fields, sec, nsec) {
      points.push({ seriesKey: info.seriesKey, measurement: info.measurement, tags: info.tags, fields: fields.toFields(), sec, nsec });
    },
  };
  parseInto(codeUnitsOf(s), opts, sink, errors);
  return { points, errors };
}

/**
 * Receives each accepted line, in order (a Point builder, or parse workers' column builder).
 * `fields` is reused for the next line: read it before returning. An object, not a callback:
 * a closure made per body was optimised anew for every body (with the builder inlined).
 */
export interface PointSink {
  addLine(info: KeyInfo, fields: FieldSet, sec: number, nsec: number): void;
}

/**
 * Bodies above this many bytes are decoded and parsed in pieces (see parseLineProtocolInto).
 * Below V8's largest regular heap object (128 KiB), so each piece's string is bump-allocated
 * in the young generation and dies there; a larger one goes to large-object space (fresh
 * pages per string, freed only by a full GC). 64 KiB pieces parsed sensor and cpu bodies
 * 12–25 % faster than 512 KiB ones (perf/parse-columns-bench.ts, A/B in one process).
 */
const PIECE_BYTES = 64 * 1024;

/**
 * parseLineProtocol with the accepted lines handed to `sink` instead of collected as Points.
 *
 * A large body without any double quote is decoded piece by piece, cut after a newline (with
 * no quote, every newline ends a line, so the lines, their order and their errors are the
 * same). Why: V8 keeps a decoded string above ~1 MB outside its heap, and such strings are
 * freed only at the next garbage collection, which a parse worker (allocating little on the
 * heap) rarely runs: dead cpu bodies held ~40–60 MiB of the server's RSS.
 */
export function parseLineProtocolInto(body: Uint8Array, opts: ParseOptions, sink: PointSink): LineError[] {
  const errors: LineError[] = [];
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (buf.length <= PIECE_BYTES || buf.indexOf(QUOTE) !== -1) {
    parseInto(decodeUnits(buf), opts, sink, errors);
    return errors;
  }
  for (let start = 0; start < buf.length; ) {
    let end = buf.length;
    if (start + PIECE_BYTES < buf.length) {
      const nl = buf.lastIndexOf(NL, start + PIECE_BYTES);
      const next = nl >= start ? nl : buf.indexOf(NL, start + PIECE_BYTES); // a line longer than a piece
      if (next >= 0) end = next + 1;
    }
    parseInto(decodeUnits(buf.subarray(start, end)), opts, sink, errors);
    start = end;
  }
  return errors;
}

/**
 * The field set of the line being parsed, shared by every parseInto call (a parse runs to its
 * end synchronously, and sinks read the set before returning): one per 64 KiB piece was a
 * few typed arrays made and dropped 8 times per body.
 */
const lineFields = new FieldSet();

function parseInto(text: CodeUnits, opts: ParseOptions, sink: PointSink, errors: LineError[]): void {
  const { s, codes, view } = text;
  const precision = opts.precision;
  const time: TimeSlot = { sec: 0, nsec: 0 };
  truncateToPrecision(opts.defaultSec, opts.defaultNsec, precision, time);
  const defSec = time.sec;
  const defNsec = time.nsec;
  const n = s.length;
  let nextQuote = -2; // position of the next `"` at or after pos, -1 if none, -2 unknown
  let nextSpace = -2; // first unescaped space at or after the current line start
  const fields = lineFields;
  let prev: KeyInfo | undefined;
  let pos = 0;
  while (pos < n) {
    let ls = pos;
    while (ls < n && isBlank(codes[ls]!)) ls++;
    let nl = s.indexOf('\n', ls);
    if (nl < 0) nl = n;
    if (ls < nl && codes[ls] !== 0x23) {
      if (nextQuote !== -1 && nextQuote < ls) nextQuote = s.indexOf('"', ls);
      if (nextQuote !== -1 && nextQuote < nl) {
        nl = lineEndWithQuotes(s, ls);
        nextQuote = -2;
      }
    }
    pos = nl + 1;
    let le = nl;
    // A string left open runs to the body's end; 1.x drops the body's last newline from that line.
    if (le === n && le > ls && codes[le - 1] === NL) le--;
    if (le > ls && codes[le - 1] === CR) le--;
    if (ls >= le || codes[ls] === 0x23) continue;

    // The key predicted from the previous line's (KeyInfo.next) costs one comparison of the
    // line's bytes with the key's and the space after it (within the line: the key holds no
    // newline); a cache lookup would slice the text, hash it and then compare it.
    let info: KeyInfo | string | undefined = prev?.next;
    let sp: number;
    if (info !== undefined && matchesKey(view, ls, info.rawBytes)) {
      sp = ls + info.raw.length; // the key matched, so it is ASCII: one unit per byte
      nextSpace = sp;
    } else {
      // Key section: up to the first space not preceded by a backslash.
      if (nextSpace < ls) {
        let at = s.indexOf(' ', ls);
        while (at > 0 && codes[at - 1] === BS) at = s.indexOf(' ', at + 1);
        nextSpace = at < 0 ? n : at;
      }
      sp = nextSpace;
      if (sp >= le) {
        const reason = parseKey(s, ls, le, true);
        errors.push({ line: s.slice(ls, le), reason: typeof reason === 'string' ? reason : 'missing fields' });
        continue;
      }
      const rawKey = s.slice(ls, sp);
      if (info === undefined || info.raw !== rawKey) {
        info = sharedCache.get(rawKey);
        if (info === undefined) info = sharedCache.add(rawKey);
        if (typeof info === 'string') {
          errors.push({ line: s.slice(ls, le), reason: info });
          continue;
        }
        if (prev !== undefined) prev.next = info;
      }
      if (info.rawBytes.tailMask === 0 && prev !== undefined) info.rawBytes = new ByteKey(`${info.raw} `);
    }
    prev = info;
    if (info.keyBytes > MAX_KEY_LENGTH) {
      errors.push({ line: s.slice(ls, le), reason: `max key length exceeded: ${info.keyBytes} > ${MAX_KEY_LENGTH}` });
      continue;
    }

    let fp = sp + 1;
    while (fp < le && isBlank(codes[fp]!)) fp++;
    if (fp >= le) {
      // A key and a separator but no fields: 1.x's scanner reports the empty field set this way.
      errors.push({ line: s.slice(ls, le), reason: 'invalid field format' });
      continue;
    }
    const fe = parseFields(text, fp, le, info, fields);
    if (typeof fe === 'string') {
      errors.push({ line: s.slice(ls, le), reason: fe });
      continue;
    }

    // Timestamp: optional, after blanks; only spaces may follow it.
    let sec = defSec;
    let nsec = defNsec;
    let ts = fe;
    while (ts < le && isBlank(codes[ts]!)) ts++;
    if (ts < le) {
      const err = parsePlainTimestamp(codes, ts, le, precision, time) ? null : timestampAt(s, ts, le, precision, time);
      if (err !== null) {
        errors.push({ line: s.slice(ls, le), reason: err });
        continue;
      }
      sec = time.sec;
      nsec = time.nsec;
    }
    if (info.timeTag) {
      errors.push({ line: s.slice(ls, le), reason: `invalid tag key: input tag "time" on measurement "${info.fieldMeasurement ?? info.measurement}" is invalid`, refused: 'time-tag', sec });
      continue;
    }
    if (fields.count === 0 || info.fieldMeasurement !== undefined) {
      const named = info.fieldMeasurement;
      const series: RefusedSeries = { seriesKey: info.seriesKey, measurement: info.measurement, tags: info.tags, sec, ...(named !== undefined && { fieldMeasurement: named }) };
      if (fields.count > 0) errors.push({ line: s.slice(ls, le), reason: '', refused: 'unlisted-fields', series });
      else errors.push({ line: s.slice(ls, le), reason: `invalid field name: input field "time" on measurement "${info.fieldMeasurement ?? info.measurement}" is invalid`, refused: 'time-field', series });
      continue;
    }
    sink.addLine(info, fields, sec, nsec);
  }
}

/**
 * The timestamp token from `ts` (not blank) to the line end `le` into `time`, or the error
 * reason: only spaces may follow it.
 */
function timestampAt(s: string, ts: number, le: number, precision: Precision, time: TimeSlot): string | null {
  let te = ts;
  for (; te < le; te++) {
    const c = s.charCodeAt(te);
    if (c === SPACE) break;
    if ((c < 0x30 || c > 0x39) && !(c === 0x2d && te === ts)) return 'bad timestamp';
  }
  const err = parseTimestamp(s, ts, te, precision, time);
  if (err !== null) return err;
  while (te < le && s.charCodeAt(te) === SPACE) te++;
  return te < le ? 'point is invalid' : null;
}

/**
 * End of the line starting at `i` when it contains a double quote: newlines inside a quoted
 * field value do not end it. As 1.x scanLine: it skips every backslash pair, the key section
 * too, so the field set starts at the first space not in a pair (an escaped backslash before a
 * space ends the key here, where the key scanner, looking one back, reads on); once in the
 * field set, a quote toggles when more `=` than `,` have been seen outside quotes. A newline
 * outside quotes always ends the line, even after a backslash.
 */
function lineEndWithQuotes(s: string, i: number): number {
  const n = s.length;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === NL) return i;
    if (c === BS) {
      if (i + 1 < n && s.charCodeAt(i + 1) === NL) return i + 1;
      i++;
    } else if (c === SPACE) break;
  }
  let quoted = false;
  let equals = 0;
  let commas = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === BS) {
      if (!quoted && i + 1 < n && s.charCodeAt(i + 1) === NL) return i + 1;
      i += 2;
      continue;
    }
    if (c === QUOTE) {
      if (equals > commas) quoted = !quoted;
    } else if (!quoted) {
      if (c === NL) return i;
      if (c === 0x3d) equals++;
      else if (c === 0x2c) commas++;
    }
    i++;
  }
  return n;
}
