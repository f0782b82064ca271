#!/usr/bin/env node
// The `mem` executable. It lives outside dist/ so that npm can link it at install time, before
// the `prepare` step has built dist/ (a bin pointing into dist/ is silently not linked).
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv);
