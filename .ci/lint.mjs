// Architecture lint: the folder dependency rules of shared/notes/style.md and the checkable
// code-style rules. Type checking is `tsc` (run by `make build`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const LAYERS = ['engine', 'ql', 'server', 'cli', 'perf'];
// layer -> layers it must not import
const FORBIDDEN = {
  engine: ['ql', 'server', 'cli', 'perf'],
  ql: ['server', 'cli', 'perf'],
  server: ['cli', 'perf'],
  cli: ['perf'],
  perf: [],
};
const MAX_LINES = 600;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

const problems = [];
const lengths = [];
for (const layer of LAYERS) {
  let files = [];
  try { files = walk(join(ROOT, layer)); } catch { continue; }
  for (const file of files) {
    const rel = relative(ROOT, file);
    const text = readFileSync(file, 'utf8');
    const isTest = file.endsWith('.test.ts');
    const lines = text.split('\n').length;
    if (!isTest) {
      lengths.push(lines);
      if (lines > MAX_LINES) problems.push(`${rel}: ${lines} lines (max ${MAX_LINES}); split it by concern`);
    }
    const importRe = /(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2];
      if (!spec || !spec.startsWith('.')) continue;
      const target = relative(ROOT, resolve(dirname(file), spec));
      const targetLayer = target.split(sep)[0];
      if (FORBIDDEN[layer].includes(targetLayer)) {
        problems.push(`${rel}: imports ${spec} (${layer}/ must not import ${targetLayer}/)`);
      } else if (targetLayer !== layer && LAYERS.includes(targetLayer) && !isTest) {
        const ok = target === join(targetLayer, 'index.js') || target === join(targetLayer, 'index.ts');
        if (!ok) problems.push(`${rel}: reaches into ${target}; import other layers only through ${targetLayer}/index.ts`);
      }
    }
    if (layer !== 'cli' && layer !== 'perf' && !isTest && /process\.env\b/.test(text)) {
      problems.push(`${rel}: reads process.env; configuration is read once in cli/config.ts and passed down`);
    }
    if ((layer === 'engine' || layer === 'ql') && !isTest && /throw new Error\(/.test(text)) {
      problems.push(`${rel}: throws a bare Error; use a typed error from ${layer}/errors.ts`);
    }
    if (!isTest && /\brename(Sync)?\(/.test(text) && rel !== join('engine', 'fs', 'atomic.ts')) {
      problems.push(`${rel}: calls rename(); publish files through engine/fs/atomic.ts`);
    }
  }
}
lengths.sort((a, b) => a - b);
const median = lengths.length ? lengths[Math.floor(lengths.length / 2)] : 0;
if (median > 200) problems.push(`median non-test file length ${median} lines (aim: under 200)`);

if (problems.length) {
  console.error(`lint: ${problems.length} problem(s)`);
  for (const p of problems) console.error('  ' + p);
  process.exit(1);
}
console.log(`lint: ok (${lengths.length} source files, median ${median} lines)`);
