/**
 * The one root configuration schema: every key of the spec with its default, composed from
 * the per-layer sub-schemas (style.md item 14). Sections are strict objects, so an unknown key
 * anywhere fails validation.
 */
import { z } from 'zod';
import { serverConfigSections } from '../server/index.js';
import { clusterConfigSections } from './config-schema-cluster.js';
import { engineConfigSections } from './config-schema-engine.js';
import { loggingSectionSchema } from './logger.js';

export const configSchema = z.strictObject({
  ...serverConfigSections,
  ...engineConfigSections,
  ...clusterConfigSections,
  logging: loggingSectionSchema.prefault({}),
});

/** Validated file + env + defaults, before derived values (config-resolve.ts). */
export type ParsedConfig = z.output<typeof configSchema>;

/** The effective configuration handed to every layer. */
export type Config = Omit<ParsedConfig, 'chdb'> & {
  readonly chdb: ParsedConfig['chdb'] & { readonly tag_low_cardinality_max: number };
};
export type ResolvedConfig = Config;

/** Keys the spec keeps for compatibility (Versioning item 5): accepted, with a warning. */
export const DEPRECATED_KEYS: ReadonlyMap<string, string> = new Map([
  ['cluster.anti_entropy_enabled', 'is deprecated and has no effect'],
  ['cluster.anti_entropy_interval_secs', 'is deprecated and has no effect'],
  ['cluster.replicate_receiver_workers', 'is deprecated and ignored'],
  ['chdb.pool_size', 'is deprecated; set chdb.query_pool_size and chdb.write_pool_size instead'],
]);
