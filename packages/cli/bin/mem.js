#!/usr/bin/env node
// The `mem` executable. It lives outside dist/ so that npm can link it at install time, before
// the `prepare` step has built dist/ (a bin pointing into dist/ is silently not linked).
import { main } from '../dist/main.js';

// `mem log show | head`: a reader that stops early is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await main(process.argv);
