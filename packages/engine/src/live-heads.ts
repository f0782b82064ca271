import type { ProjectionTarget, Projector } from './projector.js';
import { readRecordedHead, type RecordedHead } from './recorded-heads.js';

/**
 * Every chain head recorded for each of `projects` at the live target: each projection's own
 * position, and the copy the write path checks. A projection is opened only if it has something
 * to read (its files, or a database), so verifying never creates a projection that is not there.
 */
export async function liveRecordedHeads(
  projectors: readonly Projector[],
  live: ProjectionTarget,
  projects: readonly string[],
): Promise<Map<string, RecordedHead[]>> {
  const heads = new Map<string, RecordedHead[]>(projects.map((project) => [project, []]));
  for (const project of projects) {
    const copy = readRecordedHead(live.stateDir, project);
    if (copy) heads.get(project)!.push(copy);
  }
  for (const projector of projectors) {
    if (!projector.digest && (await projector.outputs(live)).length === 0) continue;
    const handle = await projector.init(live);
    try {
      for (const project of projects) {
        const position = await projector.position(handle, project);
        if (position)
          heads.get(project)!.push({ ...position, by: `the ${projector.name} projection` });
      }
    } finally {
      await projector.close(handle);
    }
  }
  return heads;
}
