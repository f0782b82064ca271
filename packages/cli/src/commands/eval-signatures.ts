import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { SignatureEvalReport } from '@mem/eval';
import { SOURCE_KINDS } from '@mem/ingest/definitions';
import type { SourceKind } from '@mem/ingest';
import { UsageError } from '../exit.js';
import { writeJson, writeLine, type CliIO } from '../io.js';

/** `mem eval signatures KIND:PATH…`: the failure-signature normaliser measured on real transcripts. */
export function registerEvalSignatures(evaluate: Command, io: CliIO): void {
  evaluate
    .command('signatures')
    .description(
      'failing tool results of transcripts: how many, distinct signatures, how many recur across sessions, and the raw lines each recurring signature merged',
    )
    .argument(
      '<sources...>',
      `transcripts as KIND:PATH (a file or a directory; KIND one of ${SOURCE_KINDS.join(', ')})`,
    )
    .option('--json', 'print the report as JSON')
    .action(async (entries: string[], options: { json?: boolean }) => {
      const { transcriptSource } = await import('@mem/ingest'); // on use: see eval.ts
      const sources = entries.map((entry) => {
        const colon = entry.indexOf(':');
        const kind = entry.slice(0, colon);
        if (colon < 1 || !(SOURCE_KINDS as readonly string[]).includes(kind))
          throw new UsageError(
            `source ${JSON.stringify(entry)}: expected KIND:PATH with KIND one of ${SOURCE_KINDS.join(', ')}`,
          );
        return transcriptSource({
          entry,
          kind: kind as SourceKind,
          dir: resolve(io.cwd, entry.slice(colon + 1)),
        });
      });
      const { evalSignatures } = await import('@mem/eval'); // on use: see eval.ts
      const report = await evalSignatures(sources);
      if (options.json) writeJson(io.stdout, report);
      else printSignatures(io, report);
    });
}

function printSignatures(io: CliIO, report: SignatureEvalReport): void {
  writeLine(
    io.stdout,
    `signatures: ${report.sessions} sessions, ${report.tool_results} tool results, ${report.failing_results} failing (${report.signed_results} signed); ${report.distinct_signatures} distinct signatures, ${report.recurring_across_sessions} recur across sessions, ${report.recurring_within_session} recur within one session only, ${report.merged_variants} merged more than one raw line`,
  );
  for (const s of report.recurring) {
    writeLine(
      io.stdout,
      `  ${s.sig_sha.slice(0, 12)} ${s.sessions.length} sessions ×${s.count}  ${s.signature}`,
    );
    for (const raw of s.raws) writeLine(io.stdout, `      ${raw}`);
  }
}
