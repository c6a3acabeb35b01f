/**
 * The spans a TSM reader read ahead of a key (reader.ts readBlocks), kept process-wide so the
 * next keys of the same scan take their blocks from memory: a few scans at once each find
 * theirs, one per file they read, 64 x 64 KiB at most. Most recent first; a linear scan, which
 * is small next to the read a hit saves (a keyed structure is the next step if profiles show it).
 */

/** Bytes of a file from `lo`, as read (shorter than asked at the end of the file). */
export interface Span {
  readonly lo: number;
  readonly bytes: Uint8Array;
}

const RECENT_SPANS = 64;

class RecentSpans {
  private readonly spans: { readonly owner: object; readonly span: Span }[] = [];

  /** A kept span of `owner`'s file covering [lo, hi), moved to the front. */
  find(owner: object, lo: number, hi: number): Span | undefined {
    const i = this.spans.findIndex((s) => s.owner === owner && s.span.lo <= lo && hi <= s.span.lo + s.span.bytes.length);
    if (i < 0) return undefined;
    const [s] = this.spans.splice(i, 1);
    this.spans.unshift(s!);
    return s!.span;
  }

  keep(owner: object, span: Span): void {
    this.spans.unshift({ owner, span });
    if (this.spans.length > RECENT_SPANS) this.spans.pop();
  }

  /** Forget every span of `owner` (its file is closing). */
  drop(owner: object): void {
    for (let i = this.spans.length - 1; i >= 0; i--) if (this.spans[i]!.owner === owner) this.spans.splice(i, 1);
  }
}

export const recentSpans = new RecentSpans();
