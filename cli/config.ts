/**
 * Configuration, read once at the edge (service-spec "What the service does" item 8;
 * decisions.md "unknown config keys"). Layers, later wins:
 *   1. defaults of the root schema (config-schema.ts);
 *   2. a TOML file: `--config`/`-c`, default ./config.toml (a missing default file is fine,
 *      a missing explicit one is an error);
 *   3. environment variables SERVICE__<SECTION>__<KEY>, nested tables with further `__`
 *      (SERVICE__CLUSTER__REPLICATION__MODE), each value parsed by its key's type.
 * Any bad value or unknown key stops start-up with one message listing every problem, each
 * naming the key and where it came from (file path or env var). Deprecated keys warn.
 *
 * loadConfig is pure: the environment and file system are injected, so tests need neither.
 */
import TOML from '@iarna/toml';
import type { z } from 'zod';
import { isObject, parseTextValue, schemaAt } from './config-keys.js';
import { resolveConfig } from './config-resolve.js';
import { configSchema, DEPRECATED_KEYS, type Config } from './config-schema.js';

export { configSchema, type Config } from './config-schema.js';

export const DEFAULT_CONFIG_PATH = './config.toml';
export const ENV_PREFIX = 'SERVICE__';

export interface LoadConfigInput {
  /** The `--config` flag; undefined when not given (then ./config.toml, if it exists). */
  readonly argvConfigPath?: string | undefined;
  /** A snapshot of the environment (`() => process.env`). */
  readonly getenv: () => Readonly<Record<string, string | undefined>>;
  /** File text, or undefined when the file does not exist; other failures throw. */
  readonly readFile: (path: string) => string | undefined;
}

export interface LoadedConfig {
  readonly config: Config;
  readonly warnings: readonly string[];
  /** The config file actually read, if any. */
  readonly file: string | undefined;
  /** Where a key's value came from (`config file x`, `environment variable Y`); absent = default. */
  describeSource(path: string): string | undefined;
}

/** Start-up must stop: the message lists every problem found. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.length === 1 ? `invalid configuration: ${problems[0]}` : `invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Raw = Record<string, unknown>;

function isPlainObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function setPath(target: Raw, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(node[key])) node[key] = {};
    node = node[key] as Raw;
  }
  node[path[path.length - 1]!] = value;
}

function getPath(target: Raw, path: readonly PropertyKey[]): unknown {
  let node: unknown = target;
  for (const key of path) node = isPlainObject(node) ? node[String(key)] : undefined;
  return node;
}

/** Copies TOML leaves into `raw`, recording their source; tables recurse. */
function mergeFile(raw: Raw, doc: Raw, prefix: string[], source: string, sources: Map<string, string>): void {
  for (const [key, value] of Object.entries(doc)) {
    const path = [...prefix, key];
    if (isPlainObject(value)) {
      mergeFile(raw, value, path, source, sources);
    } else {
      setPath(raw, path, value);
      sources.set(path.join('.'), source);
    }
  }
}

function readConfigFile(input: LoadConfigInput, raw: Raw, sources: Map<string, string>): string | undefined {
  const path = input.argvConfigPath ?? DEFAULT_CONFIG_PATH;
  const text = input.readFile(path);
  if (text === undefined) {
    if (input.argvConfigPath !== undefined) throw new ConfigError([`config file not found: ${path} (given with --config)`]);
    return undefined;
  }
  let doc: Raw;
  try {
    doc = TOML.parse(text) as Raw;
  } catch (err) {
    throw new ConfigError([`cannot parse config file ${path}: ${(err as Error).message.split('\n')[0]}`]);
  }
  mergeFile(raw, doc, [], `config file ${path}`, sources);
  return path;
}

function applyEnv(input: LoadConfigInput, raw: Raw, sources: Map<string, string>, problems: string[]): void {
  const env = input.getenv();
  for (const name of Object.keys(env).sort()) {
    const text = env[name];
    if (!name.startsWith(ENV_PREFIX) || text === undefined) continue;
    const path = name.slice(ENV_PREFIX.length).split('__').map((part) => part.toLowerCase());
    const key = path.join('.');
    const schema = schemaAt(configSchema, path);
    if (schema === undefined || path.some((part) => part === '')) {
      problems.push(`unknown configuration key "${key}" (from environment variable ${name})`);
      continue;
    }
    if (isObject(schema)) {
      problems.push(`"${key}" is a section, not a key (from environment variable ${name})`);
      continue;
    }
    const parsed = parseTextValue(schema, text);
    if ('error' in parsed) {
      problems.push(`${key} = ${JSON.stringify(text)} (from environment variable ${name}): ${parsed.error}`);
      continue;
    }
    setPath(raw, path, parsed.value);
    sources.set(key, `environment variable ${name}`);
  }
}

function sourceOf(sources: ReadonlyMap<string, string>, path: string): string | undefined {
  const exact = sources.get(path);
  if (exact !== undefined) return exact;
  for (const [key, source] of sources) if (key.startsWith(`${path}.`)) return source;
  return undefined;
}

function describeIssues(issues: readonly z.core.$ZodIssue[], raw: Raw, sources: ReadonlyMap<string, string>): string[] {
  const from = (path: string) => {
    const source = sourceOf(sources, path);
    return source ? ` (from ${source})` : '';
  };
  const problems: string[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...base, key].join('.');
        problems.push(`unknown configuration key "${path}"${from(path)}`);
      }
      continue;
    }
    const path = base.join('.');
    const value = getPath(raw, issue.path);
    const json = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    const shown = value === undefined ? '' : ` = ${json}`;
    problems.push(`${path}${shown}${from(path)}: ${issue.message}`);
  }
  return problems;
}

export function loadConfig(input: LoadConfigInput): LoadedConfig {
  const raw: Raw = {};
  const sources = new Map<string, string>();
  const problems: string[] = [];
  const file = readConfigFile(input, raw, sources);
  applyEnv(input, raw, sources, problems);

  const result = configSchema.safeParse(raw);
  if (!result.success) problems.push(...describeIssues(result.error.issues, raw, sources));
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);

  const describeSource = (path: string) => sources.get(path);
  const warnings: string[] = [];
  for (const [key, note] of DEPRECATED_KEYS) {
    const source = sources.get(key);
    if (source !== undefined) warnings.push(`configuration key ${key} (from ${source}) ${note}`);
  }
  const resolved = resolveConfig(result.data, describeSource);
  if (resolved.problems.length > 0) throw new ConfigError(resolved.problems);
  warnings.push(...resolved.warnings);
  return { config: resolved.config, warnings: [...new Set(warnings)], file, describeSource };
}

/** The effective configuration as TOML (`strata config`); loadable again as a config file. */
export function formatConfigToml(config: Config): string {
  const text = TOML.stringify(config as unknown as TOML.JsonMap);
  // @iarna/toml writes 8086 as 8_086 (valid TOML, but not how anyone types a port).
  return text.replace(/^(\s*\w+ = -?)(\d{1,3}(?:_\d{3})+)$/gm, (_m, key: string, digits: string) =>
    key + digits.replaceAll('_', ''),
  );
}
