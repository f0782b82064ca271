import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { KeyedSerial, MemError, isMemError, refuseControlText, serializeEvent } from '@mem/core';
import { UsageError } from '../exit.js';
import { openEngine, openExistingEngine, type GlobalOptions } from '../context.js';
import { escapeJsonControls, readAll, writeJson, writeLine, type CliIO } from '../io.js';
import { positiveIntFlag, projectFlag } from '../parse-flags.js';
import { parsePayloadLines } from './payload-lines.js';
import { unreadableFileCode } from '../input-file.js';

/** Per event type, the fields `log append` stores verbatim: text read from a source, not written by a person. */
const VERBATIM: Partial<Record<string, readonly string[]>> = {
  evidence: ['text'],
  reference: ['text'],
  ingest_accepted: ['records'],
};

export function registerLog(program: Command, io: CliIO): void {
  const log = program.command('log').description('the event log: append, show');

  log
    .command('append')
    .description(
      'append JSONL payload lines (stdin by default) as one atomic batch, then catch the projections up',
    )
    .requiredOption('--project <name>', 'project to append to')
    .option('--file <path>', 'read payload lines from this file instead of stdin')
    .option('--json', 'print {appended, first_seq, last_seq}')
    .option(
      '--force',
      'write memory text a forgotten tombstone refuses (recorded by a resurfaced event)',
    )
    .action(
      async (
        options: { project: string; file?: string; json?: boolean; force?: boolean },
        command: Command,
      ) => {
        const globals = command.optsWithGlobals<GlobalOptions>();
        const project = projectFlag(options.project);
        const file = options.file !== undefined ? resolve(io.cwd, options.file) : undefined;
        let text: string;
        try {
          text = file !== undefined ? await readFile(file, 'utf8') : await readAll(io.stdin);
        } catch (error) {
          throw new MemError(
            file !== undefined ? unreadableFileCode(error) : 'IO_FAILED',
            `${file !== undefined ? '--file: ' : ''}cannot read ${file ?? 'stdin'}: ${(error as Error).message}`,
            { file },
          );
        }
        const input = options.file ?? 'stdin';
        let parsed: ReturnType<typeof parsePayloadLines>;
        try {
          parsed = parsePayloadLines(text, input);
        } catch (error) {
          // A payload line that is no event is the input refused (exit 2), its code kept (INVALID_EVENT).
          if (!isMemError(error)) throw error;
          throw new UsageError(error.message, { cause: error });
        }
        const { payloads, lines } = parsed;
        // Payload lines are untrusted text, refused as every registry write refuses it; the
        // fields that hold a source as it was read (a transcript span, a reference passage, an
        // ingest job's records) are verbatim, as ingest_submit's transcript is.
        payloads.forEach((payload, i) => {
          const where = { file: input, line: lines[i] };
          try {
            refuseControlText(payload, `${input}:line ${lines[i]}`, VERBATIM[payload.type], where);
          } catch (error) {
            throw new UsageError((error as Error).message, { cause: error });
          }
        });
        const engine = await openEngine(io, globals);
        // A batch holding a correction is checked and appended under the correction lock, as
        // `mem supersede`'s is (appendLogBatch); any other goes straight to the engine.
        const { appendLogBatch } = await import('@mem/registry'); // on use: see eval.ts
        const result = await appendLogBatch(
          { engine, serial: new KeyedSerial() },
          project,
          payloads,
          { kind: 'cli' },
          { file: input, lines, force: options.force === true },
        );
        const summary = {
          appended: result.appended,
          first_seq: result.first_seq,
          last_seq: result.last_seq,
        };
        if (options.json) writeJson(io.stdout, summary);
        else
          writeLine(
            io.stdout,
            `appended ${summary.appended} event${summary.appended === 1 ? '' : 's'} to ${project} (seq ${summary.first_seq}..${summary.last_seq})`,
          );
      },
    );

  log
    .command('show')
    .description("print a project's events as JSONL (one run with --run)")
    .requiredOption('--project <name>', 'project to read')
    .option('--run <id>', 'only the records of this extraction run')
    .option('--from-seq <n>', 'start at this seq')
    .action(
      async (options: { project: string; run?: string; fromSeq?: string }, command: Command) => {
        const globals = command.optsWithGlobals<GlobalOptions>();
        const project = projectFlag(options.project);
        const fromSeq = positiveIntFlag(options.fromSeq, '--from-seq');
        // It reads the log alone: no projection is opened, caught up, or even imported.
        const engine = await openExistingEngine(io, globals, [project], 'log');
        let shown = 0;
        for await (const { event } of engine.read(
          project,
          fromSeq !== undefined ? { fromSeq } : {},
        )) {
          if (options.run !== undefined && (!('run_id' in event) || event.run_id !== options.run))
            continue;
          // The event as the log holds it, its C1 and bidi controls escaped as every JSON output
          // escapes them (a verbatim passage may hold U+202E): the same value, safe to print.
          io.stdout.write(`${escapeJsonControls(serializeEvent(event))}\n`);
          shown++;
        }
        // A run id that matches nothing is a typo, never an empty answer (a run always logs its
        // `run` event, so an id that exists prints at least that, unless --from-seq is past it).
        if (options.run !== undefined && shown === 0)
          throw new MemError(
            'NOT_FOUND',
            `no events of run ${JSON.stringify(options.run)} in ${project}'s log${fromSeq !== undefined ? ` from seq ${fromSeq}` : ''}`,
            { run: options.run, project },
          );
      },
    );
}
