import { loadConfig, type MemConfig } from '@mem/core';
import type { GlobalOptions } from './context.js';
import type { CliIO } from './io.js';

/** The configuration of `io`'s environment, `--root` winning over MEM_ROOT: what the CLI passes down. */
export function cliConfig(io: CliIO, globals: GlobalOptions = {}): MemConfig {
  return loadConfig(io.env, { MEM_ROOT: globals.root });
}
