import { join } from 'node:path';
import type { Command } from 'commander';
import { describeError } from '../exit.js';
import type { GlobalOptions } from '../context.js';
import { writeJson, writeLine, type CliIO } from '../io.js';
import { localPrincipal, openCliRegistry } from '../open-registry.js';
import { projectFlag } from '../parse-flags.js';
import { untilSignal } from '../signals.js';

/** Quiet time after the last save before a capture runs: an editor's save is several writes. */
const DEBOUNCE_MS = 300;

interface CaptureLine {
  events: unknown[];
}

/**
 * `mem vault watch`: runs `vault capture` for the project each time its notes are saved,
 * debounced and one capture at a time. chokidar (a maintained watcher) because fs.watch misses
 * and doubles events across platforms and editors' atomic saves (write temp, rename). A capture
 * that fails (a refused file) is reported and the watch goes on: the next save may fix it.
 */
export function registerVaultWatch(program: Command, io: CliIO): void {
  const vault = program.commands.find((c) => c.name() === 'vault') ?? program.command('vault');
  vault
    .command('watch')
    .description('capture edits of the L1/L2 notes of a project on every save, until SIGTERM')
    .requiredOption('--project <name>', 'the project whose notes to watch')
    .option('--json', 'print each capture as one JSON line')
    .action(async (options: { project: string; json?: boolean }, command: Command) => {
      const project = projectFlag(options.project);
      const globals = command.optsWithGlobals<GlobalOptions>();
      // A typo in --project is NOT_FOUND naming it, never a watch of a directory that will not come.
      const opened = await openCliRegistry(io, globals, {
        runJobs: false,
        reads: 'log',
        existing: { projects: [project] },
      });
      const caller = opened.registry.local(localPrincipal());
      const capture = async () => {
        try {
          const out = (await opened.registry.invoke('vault_capture', caller, {
            project,
            dry_run: false,
          })) as CaptureLine;
          if (options.json) writeJson(io.stdout, out);
          else if (out.events.length > 0)
            writeLine(io.stdout, `captured ${out.events.length} event(s) in ${project}`);
        } catch (error) {
          writeLine(io.stderr, describeError(error, options.json === true) ?? String(error));
        }
      };
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<void> = Promise.resolve();
      const schedule = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          running = running.then(capture);
        }, DEBOUNCE_MS);
      };
      const dir = join(opened.registry.context.engine.target.vaultDir, project);
      // Loaded here: only a watch needs the watcher, and every command's start would pay it.
      const { watch } = await import('chokidar');
      const watcher = watch(dir, {
        ignoreInitial: true,
        depth: 0,
        awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 50 },
      });
      watcher.on('all', (_event, path) => {
        if (path.endsWith('.md')) schedule();
      });
      await new Promise<void>((resolve, reject) => {
        watcher.once('ready', resolve);
        watcher.once('error', reject);
      });
      writeLine(io.stderr, `mem: watching ${dir} (SIGTERM to stop)`);
      await untilSignal();
      clearTimeout(timer);
      await watcher.close();
      await running;
      await opened.close();
    });
}
