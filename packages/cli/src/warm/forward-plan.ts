import { resolve } from 'node:path';

/**
 * The commands a running `mem serve` may answer for the CLI: registry read operations over the
 * projections (`reads` stores or vectors), no progress line. Writes stay in-process: an append
 * checks provenance and tombstones under the project's lock wherever it runs, so forwarding one
 * would save only the start, and a write answered by a server started with other settings would
 * record them. A unit test holds this list to the registry's declarations.
 */
export const FORWARDED_COMMANDS: readonly string[] = [
  'query',
  'context',
  'signature',
  'orient',
  'items read',
  'items find',
  'items open',
  'review list',
];

/** What the CLI forwards: its data root (where the socket is) and the command. */
export interface ForwardPlan {
  root: string;
  command: string;
}

/**
 * The plan for `args` (process.argv after the script), or null when they are not a forwarded
 * command. Read without commander (the client must not load it); the server parses the same
 * arguments with the whole command tree and declines anything its own check refuses. Not
 * forwarded: stdin (`-`) arguments (stdin stays with the caller's process), help, and more
 * than one `--root`.
 */
export function forwardPlan(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): ForwardPlan | null {
  const roots: string[] = [];
  const path: string[] = []; // the command's words: up to its first option, at most two
  let pathEnded = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '-' || arg === '--help' || arg === '-h') return null;
    if (arg === '--root' || arg.startsWith('--root=')) {
      const value = arg === '--root' ? args[(i += 1)] : arg.slice('--root='.length);
      if (value === undefined) return null;
      roots.push(value);
    } else if (arg.startsWith('-')) {
      if (path.length === 0) return null; // an option before the command: not one of ours
      pathEnded = true;
    } else if (!pathEnded && path.length < 2) path.push(arg);
  }
  if (roots.length > 1) return null;
  const command = FORWARDED_COMMANDS.find(
    (name) => name === path[0] || (name.includes(' ') && name === path.join(' ')),
  );
  if (command === undefined) return null;
  return { root: resolve(cwd, roots[0] ?? env['MEM_ROOT'] ?? '.'), command };
}
