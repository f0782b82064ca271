#!/usr/bin/env node
// The `mem` executable. It lives outside dist/ so that npm can link it at install time, before
// the `prepare` step has built dist/ (a bin pointing into dist/ is silently not linked).
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Installed globally this file is reached through links ($PREFIX/bin/mem -> the checkout). Why
// its real path: under --preserve-symlinks-main a relative import would resolve from the link's
// directory, which holds no dist/ and no node_modules; from the real path it finds both.
const self = realpathSync(fileURLToPath(import.meta.url));

/**
 * dist/bundle/ (packages/cli/bundle.mjs) when it is at least as new as every build it was made
 * from, else dist/. Trigger: `tsc -b` rebuilt a package after the last bundle. Why: a stale
 * bundle would run yesterday's code. Outcome: the same program from dist/, only slower to load.
 */
function entryDir() {
  const repo = new URL('../../../', pathToFileURL(self));
  const manifest = new URL('../dist/bundle/manifest.json', pathToFileURL(self));
  try {
    const built = statSync(manifest).mtimeMs;
    const { builds } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (builds.every((path) => statSync(new URL(path, repo)).mtimeMs <= built))
      return 'dist/bundle';
  } catch {
    // No bundle (a `tsc -b` build alone), or a build it names is gone: dist/ is the program.
  }
  return 'dist';
}
const entry = entryDir();
const dist = (path) => new URL(`../${entry}/${path}`, pathToFileURL(self)).href;

// `mem log show | head`: a reader that stops early is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// A read a running `mem serve` of the data root answers on its socket, before anything else is
// loaded (the command tree alone is most of a cold start); otherwise the command runs here.
const { forwardToWarmServer } = await import(
  dist(entry === 'dist' ? 'warm/forward.js' : 'forward.js')
);
const forwarded = await forwardToWarmServer(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});
if (forwarded !== null) process.exitCode = forwarded;
else {
  const { main } = await import(dist('main.js'));
  process.exitCode = await main(process.argv);
}
