// Test support: a data root over the real pi-mono-large-session transcript, whose tsc failure
// the exact tier (signatures, tool context) must recognise in another session's raw log.
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = join(import.meta.dirname, '..', '..');

/**
 * The tsc failure pi-mono-large-session hit (packages/coding-agent, `npm run check`), as another
 * session's CI log prints it: another checkout, other line numbers, a timestamp.
 */
export const PI_TSC_FAILURE = [
  '2026-09-02T10:00:01.123Z > @mariozechner/pi-coding-agent@0.9.1 check',
  "/home/runner/work/pi-mono/packages/coding-agent/src/theme/theme.ts(7,3): error TS2305: Module '\"@mariozechner/pi-tui\"' has no exported member 'EditorTheme'.",
  'Command exited with code 2',
].join('\n');

/**
 * A fresh data root (`prefix` names its temp directory) holding the transcript under pi/ and
 * project demo's standing queries (one query, tool failures, over pi:../pi): not ingested yet.
 */
export function piTranscriptRoot(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(root, 'queries'));
  mkdirSync(join(root, 'pi'));
  copyFileSync(
    join(repo, 'test', 'fixtures', 'transcripts', 'pi', 'pi-mono-large-session.jsonl'),
    join(root, 'pi', 'pi-mono-large-session.jsonl'),
  );
  writeFileSync(
    join(root, 'queries', 'demo.yaml'),
    'project: demo\nsources:\n  - pi:../pi\nqueries:\n  - id: tool-failures\n    question: Which tool calls or commands failed, with what error, and what was the working form?\n',
  );
  return root;
}
