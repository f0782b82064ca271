import { Command, CommanderError } from 'commander';
import { registerEval } from './commands/eval.js';
import { registerLog } from './commands/log.js';
import { registerMcp } from './commands/mcp.js';
import { registerRebuild } from './commands/rebuild.js';
import { registerServe } from './commands/serve.js';
import { describeError, exitCodeFor } from './exit.js';
import { registerRegistryCommands } from './registry-commands.js';
import { OPERATIONS } from '@mem/registry';
import { processIO, type CliIO } from './io.js';
import { VERSION } from './version.js';
import { cliConfig } from './config.js';
import type { GlobalOptions } from './context.js';
import type { RegistryOpener } from './open-registry.js';
import { registerVaultWatch } from './commands/vault-watch.js';

/** MEM_DEBUG, false when the configuration itself is what failed (its stack says nothing more). */
function debugOn(io: CliIO): boolean {
  try {
    return cliConfig(io).MEM_DEBUG === true;
  } catch {
    return false;
  }
}

/** How `mem` runs besides its arguments and IO. */
export interface MainOptions {
  /** How registry commands open their registry (default in-process; `mem serve`'s warm socket passes its own). */
  openRegistry?: RegistryOpener;
}

/** Builds the `mem` command tree writing to `io`. */
export function buildProgram(io: CliIO, options: MainOptions = {}): Command {
  const program = new Command('mem')
    .description(
      'project memory for coding agents: an append-only event log projected into SQLite and an Obsidian vault',
    )
    .version(VERSION)
    .option('--root <dir>', 'data root (default: $MEM_ROOT, else the current directory)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    // Every variable is checked before any command runs: a bad one starts nothing.
    .hook(
      'preAction',
      (_program, action) => void cliConfig(io, action.optsWithGlobals<GlobalOptions>()),
    );
  registerLog(program, io);
  registerEval(program, io);
  registerRebuild(program, io);
  registerServe(program, io);
  registerMcp(program, io);
  registerRegistryCommands(program, io, OPERATIONS, options.openRegistry);
  registerVaultWatch(program, io);
  for (const command of program.commands) applyExitOverride(command);
  return program;
}

function applyExitOverride(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) applyExitOverride(sub);
}

/** Runs `mem` with `argv` (as process.argv: node, script, ...args) and returns the exit code. */
export async function main(
  argv: readonly string[],
  io: CliIO = processIO(),
  options: MainOptions = {},
): Promise<number> {
  const program = buildProgram(io, options);
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    const json = argv.includes('--json');
    const message = describeError(error, json);
    if (message !== null) io.stderr.write(`${message}\n`);
    if (!(error instanceof CommanderError) && exitCodeFor(error) === 1 && debugOn(io))
      io.stderr.write(`${(error as Error).stack}\n`);
    return exitCodeFor(error);
  }
}
