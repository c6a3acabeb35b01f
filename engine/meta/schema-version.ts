/**
 * A counter of changes to what query plans are compiled against: databases and retention
 * policies (catalog), opened databases, measurements, field types, tag keys, the fields each
 * retention policy holds, and shards. Readers that keep something derived from these (ql's
 * compiled-plan memo) key it on the value and recompute when it moved.
 *
 * One counter for the process, not per engine: a change anywhere invalidates everything, which
 * costs one recompile per statement text after a schema change, and nothing can be missed.
 * Plain writes to existing series change none of the above and leave it alone.
 */
let version = 0;

/** The current value; any change listed above makes it larger. */
export function schemaVersion(): number {
  return version;
}

/** Called where one of the listed things is created, changed or removed. */
export function schemaChanged(): void {
  version++;
}
