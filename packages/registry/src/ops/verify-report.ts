import { CHAIN_BREAK_CODES } from '@mem/log';
import { z } from 'zod';

/** `mem verify`'s report, declared whole (the engine's VerifyReport). */
export const verifyReport = z.object({
  ok: z.boolean(),
  projects: z.array(
    z.object({
      project: z.string(),
      chain: z.object({
        project: z.string(),
        ok: z.boolean(),
        events: z.number(),
        segments: z.number(),
        head: z.object({ seq: z.number(), hash: z.string() }),
        break: z
          .object({
            project: z.string(),
            segment: z.string(),
            line: z.number(),
            code: z.enum(CHAIN_BREAK_CODES),
            message: z.string(),
          })
          .optional(),
        torn_tail: z.object({ segment: z.string(), bytes: z.number() }).optional(),
      }),
      provenance: z.object({
        ok: z.boolean(),
        memories: z.number(),
        problems: z.array(
          z.object({
            project: z.string(),
            seq: z.number(),
            segment: z.string(),
            line: z.number(),
            code: z.enum([
              'parent_unresolved',
              'parent_is_reference',
              'parent_wrong_level',
              'no_l0_parent',
              'no_l1_parent',
            ]),
            message: z.string(),
          }),
        ),
        total: z.number(),
        skipped: z.string().optional(),
      }),
    }),
  ),
  parity: z.object({
    ok: z.boolean(),
    files: z.number(),
    differences: z.array(
      z.object({
        projector: z.string(),
        path: z.string(),
        problem: z.enum(['missing', 'unexpected', 'differs']),
        message: z.string(),
      }),
    ),
    skipped: z.string().optional(),
    /** Where a vault L1/L2 note differs, per file and line, and what capture would do with it. */
    drift: z.array(
      z.object({ path: z.string(), line: z.number(), problem: z.string(), message: z.string() }),
    ),
  }),
  /** With `--derived-filter`: per project, the L0 evidence that repeats a registered artifact. */
  derived: z
    .array(
      z.object({
        project: z.string(),
        ok: z.boolean(),
        artifacts: z.number(),
        evidence: z.number(),
        problems: z.array(
          z.object({
            project: z.string(),
            seq: z.number(),
            chunk: z.string(),
            artifact: z.string(),
            cited_by: z.array(z.number()),
          }),
        ),
      }),
    )
    .optional(),
});

type Report = z.infer<typeof verifyReport>;

/** The readable report: one line per chain, provenance graph and parity check, then the verdict. */
export function verifyText(report: Report): string {
  const lines: string[] = [];
  for (const { project, chain, provenance } of report.projects) {
    if (chain.ok || !chain.break)
      lines.push(
        `chain       ${project}: ok (${chain.events} events in ${chain.segments} segment${chain.segments === 1 ? '' : 's'})`,
      );
    else
      lines.push(
        `chain       ${project}: BROKEN at ${chain.break.segment} line ${chain.break.line}: ${chain.break.message} [${chain.break.code}]`,
      );
    if (provenance.skipped) lines.push(`provenance  ${project}: skipped (${provenance.skipped})`);
    else if (provenance.ok)
      lines.push(`provenance  ${project}: ok (${provenance.memories} memories)`);
    else {
      lines.push(
        `provenance  ${project}: ${provenance.total} problem${provenance.total === 1 ? '' : 's'}`,
      );
      for (const problem of provenance.problems)
        lines.push(`  - ${problem.message} [${problem.code}]`);
    }
  }
  if (report.parity.skipped) lines.push(`parity      skipped (${report.parity.skipped})`);
  else if (report.parity.ok)
    lines.push(`parity      ok (${report.parity.files} files byte-identical to a rebuild)`);
  else {
    lines.push(
      `parity      ${report.parity.differences.length} difference${report.parity.differences.length === 1 ? '' : 's'}`,
    );
    for (const difference of report.parity.differences)
      lines.push(`  - ${difference.projector}: ${difference.message}`);
    for (const drift of report.parity.drift)
      lines.push(`  - vault drift: ${drift.message} [${drift.problem}]`);
  }
  for (const audit of report.derived ?? []) {
    if (audit.ok)
      lines.push(
        `derived     ${audit.project}: ok (${audit.evidence} evidence, none repeats one of ${audit.artifacts} artifacts)`,
      );
    else lines.push(`derived     ${audit.project}: ${audit.problems.length} evidence derived`);
    for (const problem of audit.problems)
      lines.push(
        `  - chunk ${problem.chunk} (seq ${problem.seq}) repeats ${problem.artifact}; cited by ${problem.cited_by.length === 0 ? 'no memory' : `memories at seq ${problem.cited_by.join(', ')}`}`,
      );
  }
  lines.push(report.ok ? 'verify: ok' : 'verify: FAILED');
  return lines.join('\n');
}
