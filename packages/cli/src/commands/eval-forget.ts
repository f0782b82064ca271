import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { MemError } from '@mem/core';
import type { ForgetScorecard } from '@mem/eval';
import { VerificationFailed } from '../exit.js';
import { writeJson, writeLine, type CliIO } from '../io.js';

export interface ForgetEvalReport extends ForgetScorecard {
  transcript: string;
  /** The captured line's sha (never its text: the report is as discreet as the ledger). */
  fact_sha256: string | null;
}

/** `mem eval forget`: seed 003's durability scorecard, in a scratch data root removed afterwards. */
export function registerEvalForget(evaluate: Command, io: CliIO): void {
  evaluate
    .command('forget')
    .description(
      "seed 003's durability scorecard in a scratch data root: ingest a transcript, forget a line of its memory, then re-add it exactly on CLI, HTTP and MCP, reworded, by re-ingest, rebuild and synthesis; search every projection and cache for it, then purge and search every file",
    )
    .requiredOption(
      '--transcript <file>',
      'a Claude Code transcript whose memory has a line to forget',
    )
    .option('--json', 'print the scorecard as JSON')
    .action(async (options: { transcript: string; json?: boolean }) => {
      const transcript = resolve(io.cwd, options.transcript);
      if (!(statSync(transcript, { throwIfNoEntry: false })?.isFile() ?? false))
        throw new MemError('NOT_FOUND', `--transcript: no file at ${transcript}`, {
          field: 'transcript',
          path: transcript,
        });
      const scratch = mkdtempSync(join(tmpdir(), 'mem-eval-forget-'));
      try {
        // On use, as @mem/eval below: the attacks reach the embedder, which no other command's
        // start may load (test/cli-cold-start.int.spec.ts).
        const { gatherForget } = await import('./eval-forget/forget-attacks.js');
        const observations = await gatherForget(scratch, transcript, io.env);
        const { scoreForget } = await import('@mem/eval'); // on use: see eval.ts
        const report: ForgetEvalReport = {
          transcript: options.transcript,
          fact_sha256: observations.fact?.sha256 ?? null,
          ...scoreForget(observations),
        };
        if (options.json) writeJson(io.stdout, report);
        else printForget(io, report);
        // A scorecard with a failed obligation is a failed check (exit 3), after its report.
        if (report.passed < report.total)
          throw new VerificationFailed(
            `eval forget: ${report.total - report.passed} obligation(s) fail`,
          );
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    });
}

function printForget(io: CliIO, report: ForgetEvalReport): void {
  writeLine(
    io.stdout,
    `forget scorecard: ${report.passed}/${report.total} obligations pass (line ${report.fact_sha256 ?? 'none captured'})`,
  );
  for (const o of report.obligations)
    writeLine(io.stdout, `  ${o.pass ? 'pass' : 'FAIL'}  ${o.name.padEnd(18)} ${o.evidence}`);
}
