import { resolve } from 'node:path';

/** The directories of one data root (DESIGN §2). */
export interface DataRoot {
  root: string;
  logDir: string;
  queriesDir: string;
  vaultDir: string;
  stateDir: string;
}

/** `--root DIR`, else `$MEM_ROOT`, else the current directory. */
export function resolveDataRoot(flag?: string, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): DataRoot {
  const root = resolve(cwd, flag ?? env['MEM_ROOT'] ?? '.');
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
