/**
 * Walking the root zod schema by key path, to type environment values and to recognise
 * unknown keys before validation. Only the zod wrappers used by the config schemas are
 * understood: default, prefault, optional, pipe (preprocess), object, union and leaf types.
 */
import type { z } from 'zod';

type Def = { readonly type: string } & Readonly<Record<string, unknown>>;

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { def: Def }).def;
}

/** Strips default/prefault/optional wrappers and preprocess pipes down to the validating type. */
export function unwrap(schema: z.ZodType): z.ZodType {
  for (;;) {
    const def = defOf(schema);
    if (def.type === 'default' || def.type === 'prefault' || def.type === 'optional' || def.type === 'nullable') {
      schema = def['innerType'] as z.ZodType;
    } else if (def.type === 'pipe') {
      const input = def['in'] as z.ZodType;
      schema = defOf(input).type === 'transform' ? (def['out'] as z.ZodType) : input;
    } else {
      return schema;
    }
  }
}

export function isObject(schema: z.ZodType): boolean {
  return defOf(unwrap(schema)).type === 'object';
}

/** The schema at `path` below `root`, or undefined when no such key exists. */
export function schemaAt(root: z.ZodType, path: readonly string[]): z.ZodType | undefined {
  let current: z.ZodType = root;
  for (const key of path) {
    const def = defOf(unwrap(current));
    if (def.type !== 'object') return undefined;
    const shape = def['shape'] as Readonly<Record<string, z.ZodType>>;
    if (!Object.hasOwn(shape, key)) return undefined;
    current = shape[key]!;
  }
  return current;
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/**
 * An environment string typed by the key's schema. Returns `{ error }` when the text cannot be
 * a value of that type; range and enum checks are left to the schema itself.
 */
export function parseTextValue(schema: z.ZodType, text: string): { value: unknown } | { error: string } {
  const def = defOf(unwrap(schema));
  const trimmed = text.trim();
  switch (def.type) {
    case 'number':
      return NUMBER.test(trimmed) ? { value: Number(trimmed) } : { error: 'expected a number' };
    case 'boolean': {
      const lower = trimmed.toLowerCase();
      if (TRUE.has(lower)) return { value: true };
      if (FALSE.has(lower)) return { value: false };
      return { error: 'expected true or false' };
    }
    case 'union': {
      const options = def['options'] as readonly z.ZodType[];
      const numeric = options.some((o) => defOf(unwrap(o)).type === 'number');
      return { value: numeric && NUMBER.test(trimmed) ? Number(trimmed) : trimmed };
    }
    case 'object':
      return { error: 'is a section, not a key' };
    default:
      // strings, enums, literals and comma-separated lists (the list schema splits them)
      return { value: text };
  }
}
