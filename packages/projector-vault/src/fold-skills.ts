import type { EventOf } from '@mem/core';
import type { FoldEffect } from './fold.js';
import type { NoteKey, SkillRef, VaultFold } from './fold-state.js';

/** Both files of a skill: each is re-rendered, and the one whose text is null goes. */
function both(name: string): NoteKey[] {
  return [
    { kind: 'skill', name, draft: true },
    { kind: 'skill', name, draft: false },
  ];
}

function skillOf(fold: VaultFold, name: string): SkillRef {
  let skill = fold.skills.get(name);
  if (!skill) {
    skill = { draft: null, promoted: null };
    fold.skills.set(name, skill);
  }
  return skill;
}

/**
 * `promoted_at` goes last in the frontmatter: the draft's own keys keep their bytes, and the
 * value is a JSON string (valid YAML), so YAML never reads it back as a date.
 */
export function withPromotedAt(text: string, ts: string): string {
  const close = text.indexOf('\n---\n', 3);
  return `${text.slice(0, close)}\npromoted_at: ${JSON.stringify(ts)}${text.slice(close)}`;
}

/**
 * Drafted: the draft file holds this text (a later draft of the name replaces it). Promoted: the
 * latest draft moves out of `_drafts/` into the loadable directory, stamped with the event's
 * time. Retired: the loadable file goes. A promote with no draft, or a retire of nothing
 * promoted, changes no file (the operations refuse both; a hand-written log may not).
 */
export function applySkill(
  fold: VaultFold,
  event: EventOf<'skill_drafted' | 'skill_promoted' | 'skill_retired'>,
): FoldEffect {
  const skill = skillOf(fold, event.name);
  switch (event.type) {
    case 'skill_drafted':
      skill.draft = event.text;
      break;
    case 'skill_promoted':
      if (skill.draft === null) return { touched: [] };
      skill.promoted = withPromotedAt(skill.draft, event.ts);
      skill.draft = null;
      break;
    case 'skill_retired':
      if (skill.promoted === null) return { touched: [] };
      skill.promoted = null;
      break;
  }
  return { touched: both(event.name) };
}
