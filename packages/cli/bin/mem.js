#!/usr/bin/env node
// The `mem` executable. It lives outside dist/ so that npm can link it at install time, before
// the `prepare` step has built dist/ (a bin pointing into dist/ is silently not linked).
import { realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Installed globally this file is reached through links ($PREFIX/bin/mem -> the checkout). Why
// its real path: under --preserve-symlinks-main a relative import would resolve from the link's
// directory, which holds no dist/ and no node_modules; from the real path it finds both.
const self = realpathSync(fileURLToPath(import.meta.url));
const dist = (path) => new URL(`../dist/${path}`, pathToFileURL(self)).href;

// `mem log show | head`: a reader that stops early is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// A read a running `mem serve` of the data root answers on its socket, before anything else is
// loaded (the command tree alone is most of a cold start); otherwise the command runs here.
const { forwardToWarmServer } = await import(dist('warm/forward.js'));
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
