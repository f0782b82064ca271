import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Notices, by stats alone, which projects' logs moved since they were last accepted: any
 * process's append (another `mem serve`, a CLI writer) grows a project's newest segment or adds
 * one. Why stats and not the chain heads: a request must stay cheap when nothing is new, and a
 * head is a read of the segment's tail. A signature is the project directory's mtime (a new
 * segment) and the newest segment's name, size and mtime.
 */
export class LogMoves {
  private readonly accepted = new Map<string, string>();
  private logDirMtimeMs = -1;
  private projectNames: string[] = [];
  private readonly newest = new Map<string, { dirMtimeMs: number; segment: string | undefined }>();

  constructor(private readonly logDir: string) {}

  /** The projects whose signature differs from the accepted one, with their signatures now. */
  moved(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [project, signature] of this.signatures())
      if (this.accepted.get(project) !== signature) out.set(project, signature);
    return out;
  }

  /** Every project's signature now. */
  signatures(): Map<string, string> {
    const out = new Map<string, string>();
    for (const project of this.projects()) out.set(project, this.signature(project));
    return out;
  }

  /** Records the signatures a catch-up started from as seen. */
  accept(signatures: ReadonlyMap<string, string>): void {
    for (const [project, signature] of signatures) this.accepted.set(project, signature);
  }

  private projects(): string[] {
    const dir = statSync(this.logDir, { throwIfNoEntry: false });
    if (!dir) return [];
    if (dir.mtimeMs !== this.logDirMtimeMs) {
      // Listing only when the directory changed (a new project): a request costs stats, not a readdir.
      this.logDirMtimeMs = dir.mtimeMs;
      this.projectNames = readdirSync(this.logDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    }
    return this.projectNames;
  }

  private signature(project: string): string {
    const projectDir = join(this.logDir, project);
    const dir = statSync(projectDir, { throwIfNoEntry: false });
    if (!dir) return 'absent';
    let known = this.newest.get(project);
    if (!known || known.dirMtimeMs !== dir.mtimeMs) {
      known = {
        dirMtimeMs: dir.mtimeMs,
        segment: readdirSync(projectDir)
          .filter((name) => /^\d{6}\.jsonl$/.test(name))
          .sort()
          .at(-1),
      };
      this.newest.set(project, known);
    }
    if (known.segment === undefined) return `${dir.mtimeMs}`;
    const segment = statSync(join(projectDir, known.segment), { throwIfNoEntry: false });
    return `${dir.mtimeMs}:${known.segment}:${segment?.size ?? 0}:${segment?.mtimeMs ?? 0}`;
  }
}
