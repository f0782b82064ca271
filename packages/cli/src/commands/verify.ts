import type { Command } from 'commander';
import type { VerifyReport } from '@mem/engine';
import { openExistingEngine, type GlobalOptions } from '../context.js';
import { VerificationFailed } from '../exit.js';
import { writeJson, writeLine, type CliIO } from '../io.js';
import { projectFlag } from '../parse-flags.js';

export function registerVerify(program: Command, io: CliIO): void {
  program
    .command('verify')
    .description('check every hash chain, the provenance graph, and byte parity of the projections with a fresh rebuild (exit 3 on any break)')
    .option('--project <name>', 'only this project (parity still rebuilds the whole SQLite store)')
    .option('--json', 'print the report as JSON')
    .action(async (options: { project?: string; json?: boolean }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const project = options.project !== undefined ? projectFlag(options.project) : undefined;
      const engine = await openExistingEngine(io, globals, project !== undefined ? [project] : []);
      const report = await engine.verify(project !== undefined ? { project } : {});
      if (options.json) writeJson(io.stdout, report);
      else printReport(io, report);
      if (!report.ok) throw new VerificationFailed('verification failed');
    });
}

function printReport(io: CliIO, report: VerifyReport): void {
  for (const { project, chain, provenance } of report.projects) {
    if (chain.ok) writeLine(io.stdout, `chain       ${project}: ok (${chain.events} events in ${chain.segments} segment${chain.segments === 1 ? '' : 's'})`);
    else writeLine(io.stdout, `chain       ${project}: BROKEN at ${chain.break!.segment} line ${chain.break!.line}: ${chain.break!.message} [${chain.break!.code}]`);
    if (provenance.skipped) writeLine(io.stdout, `provenance  ${project}: skipped (${provenance.skipped})`);
    else if (provenance.ok) writeLine(io.stdout, `provenance  ${project}: ok (${provenance.memories} memories)`);
    else {
      writeLine(io.stdout, `provenance  ${project}: ${provenance.total} problem${provenance.total === 1 ? '' : 's'}`);
      for (const problem of provenance.problems) writeLine(io.stdout, `  - ${problem.message} [${problem.code}]`);
    }
  }
  if (report.parity.skipped) writeLine(io.stdout, `parity      skipped (${report.parity.skipped})`);
  else if (report.parity.ok) writeLine(io.stdout, `parity      ok (${report.parity.files} files byte-identical to a rebuild)`);
  else {
    writeLine(io.stdout, `parity      ${report.parity.differences.length} difference${report.parity.differences.length === 1 ? '' : 's'}`);
    for (const difference of report.parity.differences) writeLine(io.stdout, `  - ${difference.projector}: ${difference.message}`);
  }
  writeLine(io.stdout, report.ok ? 'verify: ok' : 'verify: FAILED');
}
