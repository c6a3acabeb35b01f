#!/usr/bin/env node
// `make binary`: build dist/strata, a single executable (Node's SEA support) for this platform,
// without downloading anything. Run after `tsc` (it bundles build/, not the .ts sources).
//
//   1. find the native addons this Node loads for uWebSockets.js and lz4-napi (this platform/ABI);
//   2. esbuild: build/cli/main.js + dependencies -> dist/sea/strata.mjs (ESM, top-level await kept),
//      with `uWebSockets.js` / `lz4-napi` redirected to cli/sea/addons.ts (process.dlopen of the
//      unpacked .node files); the WASM of xxhash-wasm and hash-wasm is inlined by those packages;
//   3. esbuild: cli/sea/bootstrap.ts -> dist/sea/bootstrap.cjs (the SEA main, CommonJS);
//   4. `node --experimental-sea-config` -> dist/sea/strata.blob, with the bundle, a package.json
//      (the version) and the addons as assets, plus manifest.json naming them;
//   5. copy of this `node` + postject -> dist/strata; then `dist/strata version` as a smoke test.
//
// Tools: esbuild and postject from the project's node_modules, or from STRATA_SEA_TOOLS (a
// node_modules directory, e.g. after `npm install --prefix /tmp/sea-tools esbuild postject`).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILD = join(ROOT, 'build');
const DIST = join(ROOT, 'dist');
const WORK = join(DIST, 'sea');
const OUT = join(DIST, process.platform === 'win32' ? 'strata.exe' : 'strata');
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** The bare imports served by process.dlopen inside the binary, and their addon names. */
const NATIVE = { 'uWebSockets.js': 'uws', 'lz4-napi': 'lz4' };

const rootRequire = createRequire(join(ROOT, 'package.json'));

function fail(message) {
  process.stderr.write(`make binary: ${message}\n`);
  process.exit(1);
}

function log(message) {
  process.stdout.write(`make binary: ${message}\n`);
}

/** A build tool from node_modules, or from $STRATA_SEA_TOOLS. */
function tool(name) {
  const places = [rootRequire];
  if (process.env.STRATA_SEA_TOOLS) places.push(createRequire(join(resolve(process.env.STRATA_SEA_TOOLS), 'noop.js')));
  for (const req of places) {
    try {
      return req(name);
    } catch (err) {
      if (err.code !== 'MODULE_NOT_FOUND') throw err;
    }
  }
  return fail(
    `${name} is not installed: add the devDependencies esbuild and postject (npm install), ` +
      `or point STRATA_SEA_TOOLS at a node_modules directory holding them`,
  );
}

/**
 * The `.node` file this Node process loads for package `name`: require it and see which native
 * module appeared in require.cache. This is exactly the file the package picks on this
 * platform, CPU, libc and Node ABI, whatever its own selection logic.
 */
function nativeFileOf(name) {
  const before = new Set(Object.keys(rootRequire.cache));
  rootRequire(name);
  const added = Object.keys(rootRequire.cache).filter((k) => !before.has(k) && k.endsWith('.node'));
  if (added.length !== 1) {
    fail(
      `${name} loaded ${added.length} native files (${added.join(', ') || 'none'}) on ${process.platform}-${process.arch} ` +
        `with Node ABI ${process.versions.modules}; a single binary needs exactly one`,
    );
  }
  return added[0];
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** esbuild plugin: `uWebSockets.js` / `lz4-napi` -> loadAddon(...) from cli/sea/addons.ts. */
function nativeRedirect(loaderPath) {
  return {
    name: 'strata-native-addons',
    setup(b) {
      const filter = new RegExp(`^(${Object.keys(NATIVE).map((n) => n.replace(/[.]/g, '\\.')).join('|')})$`);
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'strata-native' }));
      b.onLoad({ filter: /.*/, namespace: 'strata-native' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(loaderPath)}).loadAddon(${JSON.stringify(NATIVE[args.path])});\n`,
        loader: 'js',
        resolveDir: dirname(loaderPath),
      }));
    },
  };
}

/** Worker entry points, bundled beside the program under the name their pool starts. */
const WORKERS = [
  { from: ['engine', 'lineprotocol', 'parse-worker.js'], name: 'parse-worker.js' },
  { from: ['engine', 'flush', 'flush-worker.js'], name: 'flush-worker.js' },
];

async function bundle(esbuild) {
  const common = { bundle: true, platform: 'node', target: 'node20', keepNames: true, logLevel: 'warning', legalComments: 'none' };
  const esm = {
    format: 'esm',
    // CommonJS dependencies call require(): give the ESM bundle a real one.
    banner: { js: "import { createRequire as __strataCreateRequire } from 'node:module';\nconst require = __strataCreateRequire(import.meta.url);" },
    plugins: [nativeRedirect(join(BUILD, 'cli', 'sea', 'addons.js'))],
  };
  await esbuild.build({
    ...common,
    entryPoints: [join(BUILD, 'cli', 'main.js')],
    outfile: join(WORK, 'strata.mjs'),
    ...esm,
  });
  // The worker threads (/write parsing: engine/lineprotocol/parse-pool.ts; snapshot encoding:
  // engine/flush/flush-worker-pool.ts) are started from files next to the program's bundle:
  // ship each as its own bundle beside it.
  for (const worker of WORKERS) {
    await esbuild.build({
      ...common,
      entryPoints: [join(BUILD, ...worker.from)],
      outfile: join(WORK, worker.name),
      ...esm,
    });
  }
  await esbuild.build({
    ...common,
    entryPoints: [join(BUILD, 'cli', 'sea', 'bootstrap.js')],
    outfile: join(WORK, 'bootstrap.cjs'),
    format: 'cjs',
  });
}

function manifestAndAssets(version, natives) {
  const pkg = Buffer.from(`${JSON.stringify({ name: 'strata', version, private: true })}\n`);
  writeFileSync(join(WORK, 'package.json'), pkg);
  const files = [
    { asset: 'strata.mjs', name: 'strata.mjs', path: join(WORK, 'strata.mjs') },
    { asset: 'package.json', name: 'package.json', path: join(WORK, 'package.json') },
    ...WORKERS.map((w) => ({ asset: w.name, name: w.name, path: join(WORK, w.name) })),
  ];
  const addons = {};
  for (const [addon, path] of Object.entries(natives)) {
    const name = `${addon}.${process.platform}-${process.arch}-${process.versions.modules}.node`;
    files.push({ asset: `addons/${name}`, name, path });
    addons[addon] = name;
  }
  const hash = createHash('sha256');
  const entries = files.map((f) => {
    const bytes = readFileSync(f.path);
    hash.update(`${f.asset}\0${sha256(bytes)}\n`);
    return { asset: f.asset, name: f.name, size: bytes.byteLength };
  });
  const id = `${version}-${hash.digest('hex').slice(0, 16)}`;
  const manifest = { version, id, entry: 'strata.mjs', addons, files: entries };
  writeFileSync(join(WORK, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const assets = { 'manifest.json': join(WORK, 'manifest.json') };
  for (const f of files) assets[f.asset] = f.path;
  return { manifest, assets };
}

async function main() {
  if (process.platform === 'win32') fail('Windows builds are not supported by this script');
  if (!process.argv.includes('--check-tools') && !existsSync(join(BUILD, 'cli', 'main.js')) || !existsSync(join(BUILD, 'cli', 'sea', 'bootstrap.js'))) {
    fail('build/ is missing: run `npx tsc -p .` (make build) first');
  }
  const esbuild = tool('esbuild');
  const postject = tool('postject');
  if (process.argv.includes('--check-tools')) return; // exit 0: the tools are there
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

  delete process.env.UWS_USE_FALLBACK; // we want uWS's native binary, not its JS fallback
  const natives = {};
  for (const [pkg, addon] of Object.entries(NATIVE)) natives[addon] = nativeFileOf(pkg);
  for (const [addon, path] of Object.entries(natives)) log(`addon ${addon}: ${path}`);

  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  await bundle(esbuild);
  const { manifest, assets } = manifestAndAssets(version, natives);
  log(`bundle ${statSync(join(WORK, 'strata.mjs')).size} bytes, cache id ${manifest.id}`);

  const seaConfig = join(WORK, 'sea-config.json');
  const blob = join(WORK, 'strata.blob');
  writeFileSync(
    seaConfig,
    JSON.stringify({ main: join(WORK, 'bootstrap.cjs'), output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, assets }, null, 2),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: ['ignore', 'ignore', 'inherit'] });

  // The copy of this very node binary: the addons above were picked for its ABI.
  const tmp = join(DIST, `.${basename(OUT)}.tmp`);
  rmSync(tmp, { force: true });
  copyFileSync(process.execPath, tmp);
  chmodSync(tmp, 0o755);
  const macos = process.platform === 'darwin';
  if (macos) execFileSync('codesign', ['--remove-signature', tmp], { stdio: 'inherit' });
  await postject.inject(tmp, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: SENTINEL_FUSE,
    ...(macos ? { machoSegmentName: 'NODE_SEA' } : {}),
  });
  if (macos) execFileSync('codesign', ['--sign', '-', tmp], { stdio: 'inherit' });
  renameSync(tmp, OUT);
  rmSync(blob); // 100+ MB, and now inside dist/strata

  // Smoke test with a throw-away cache directory.
  const cache = join(WORK, 'smoke-cache');
  const said = execFileSync(OUT, ['version'], { env: { ...process.env, STRATA_CACHE_DIR: cache }, encoding: 'utf8' }).trim();
  rmSync(cache, { recursive: true, force: true });
  if (said !== `strata ${version}`) fail(`${OUT} version printed ${JSON.stringify(said)}, expected "strata ${version}"`);
  log(`${OUT} (${(statSync(OUT).size / 1048576).toFixed(1)} MiB, ${process.platform}-${process.arch}, node ${process.version}): ${said}`);
}

await main();
