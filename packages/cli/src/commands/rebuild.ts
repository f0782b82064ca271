import type { Command } from 'commander';
import { openExistingEngine, type GlobalOptions } from '../context.js';
import { writeJson, writeLine, type CliIO } from '../io.js';
import { projectFlag } from '../parse-flags.js';
import { refuseUncapturedEdits } from '@mem/registry';
import { UsageError } from '../exit.js';

const PROJECTIONS = ['sqlite', 'vault', 'pgvector'] as const;

export function registerRebuild(program: Command, io: CliIO): void {
  program
    .command('rebuild')
    .description('drop the projections and replay the log into them (the log is the only input)')
    .option('--from-log', 'rebuild from the log (the only source there is; accepted for clarity)')
    .option('--project <name>', 'only this project')
    .option('--only <projection>', `only one projection: ${PROJECTIONS.join('|')}`)
    .option(
      '--emit-evidence-notes',
      'also write one vault note per L0 evidence (a setting kept in the _system log)',
    )
    .option(
      '--no-emit-evidence-notes',
      'stop writing evidence notes (a setting kept in the _system log)',
    )
    .option(
      '--discard-edits',
      'overwrite edited L1/L2 vault notes with what the log projects (default: refuse; see mem vault capture)',
    )
    .option('--json', 'print the rebuild report as JSON')
    .action(
      async (
        options: {
          project?: string;
          only?: string;
          emitEvidenceNotes?: boolean;
          discardEdits?: boolean;
          json?: boolean;
        },
        command: Command,
      ) => {
        const globals = command.optsWithGlobals<GlobalOptions>();
        const project = options.project !== undefined ? projectFlag(options.project) : undefined;
        if (
          options.only !== undefined &&
          !(PROJECTIONS as readonly string[]).includes(options.only)
        ) {
          throw new UsageError(
            `--only: expected one of ${PROJECTIONS.join(', ')}, got ${JSON.stringify(options.only)}`,
          );
        }
        const flagGiven = command.getOptionValueSource('emitEvidenceNotes') === 'cli';
        const engine = await openExistingEngine(
          io,
          globals,
          project !== undefined ? [project] : [],
        );
        if (options.discardEdits !== true && (options.only ?? 'vault') === 'vault')
          await refuseUncapturedEdits(engine, project);
        const report = await engine.rebuild({
          ...(project !== undefined ? { project } : {}),
          ...(options.only !== undefined ? { only: [options.only] } : {}),
          ...(flagGiven
            ? {
                projection: { emitEvidenceNotes: options.emitEvidenceNotes === true },
                writer: { kind: 'cli' },
              }
            : {}),
        });
        if (options.json) {
          writeJson(io.stdout, report);
          return;
        }
        const events = new Map<string, number>();
        for (const a of report.applied)
          events.set(a.projector, (events.get(a.projector) ?? 0) + a.events);
        for (const name of report.projectors) {
          writeLine(
            io.stdout,
            `rebuilt ${name} from ${events.get(name) ?? 0} events of ${report.projects.length} project${report.projects.length === 1 ? '' : 's'}`,
          );
        }
      },
    );
}
