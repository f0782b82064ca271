import { resolve } from 'node:path';
import type { MemConfig } from '@mem/core';

/** The directories of one data root (DESIGN §2). */
export interface DataRoot {
  root: string;
  logDir: string;
  queriesDir: string;
  vaultDir: string;
  stateDir: string;
}

/** `--root DIR`, else `$MEM_ROOT` (loadConfig's MEM_ROOT, the flag winning), else `cwd`. */
export function resolveDataRoot(config: MemConfig, cwd: string): DataRoot {
  const root = resolve(cwd, config.MEM_ROOT ?? '.');
  return dataRootAt(root);
}

export function dataRootAt(root: string): DataRoot {
  return {
    root,
    logDir: resolve(root, 'log'),
    queriesDir: resolve(root, 'queries'),
    vaultDir: resolve(root, 'vault'),
    stateDir: resolve(root, '.mem'),
  };
}
