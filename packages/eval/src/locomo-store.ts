import { contentSha256 } from '@mem/core';
import type { Engine } from '@mem/engine';
import type { LocomoConversation } from './locomo.js';

/** The scratch project of one conversation. */
export function locomoProject(conversation: LocomoConversation): string {
  return `locomo-${conversation.sampleId.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}`;
}

/** The text a turn is stored and searched as: the speaker's name, then the words (and image caption). */
export function turnText(speaker: string, text: string): string {
  return `${speaker}: ${text}`;
}

/**
 * Writes each conversation's turns through the log as reference (R) nodes, one per turn,
 * source `locomo:<conv>#<dia_id>`, heading path [conversation, session, date]. Returns, per
 * project, the dia_ids of every stored sha: a turn whose text repeats an earlier turn's is the
 * same node (content identity), so that node stands for both ids.
 */
export async function writeLocomo(
  engine: Engine,
  conversations: readonly LocomoConversation[],
): Promise<Map<string, Map<string, string[]>>> {
  const byProject = new Map<string, Map<string, string[]>>();
  for (const conversation of conversations) {
    const project = locomoProject(conversation);
    const ids = new Map<string, string[]>();
    const payloads: Record<string, unknown>[] = [];
    for (const session of conversation.sessions) {
      for (const turn of session.turns) {
        const text = turnText(turn.speaker, turn.text);
        const sha256 = contentSha256(text);
        const known = ids.get(sha256);
        if (known) {
          known.push(turn.diaId);
          continue;
        }
        ids.set(sha256, [turn.diaId]);
        payloads.push({
          type: 'reference',
          level: 'R',
          source: `locomo:${conversation.sampleId}#${turn.diaId}`,
          heading_path: [
            conversation.sampleId,
            `session_${session.number}`,
            ...(session.dateTime ? [session.dateTime] : []),
          ],
          text,
          sha256,
        });
      }
    }
    if (payloads.length > 0) await engine.append(project, payloads, { kind: 'eval' });
    byProject.set(project, ids);
  }
  return byProject;
}
