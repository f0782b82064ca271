import { z } from 'zod';
import { sha256Field } from './fields.js';

/*
 * Skills, the procedural projection (DESIGN §1, seed 001): a skill is drafted from a memory,
 * promoted by a person out of `_drafts/`, and retired. The draft carries the whole SKILL.md, so
 * the vault renders it from the log alone and the derived-artifact manifest can register the very
 * text an agent may later paste back. Who acted is the envelope's writer (principal, token label).
 */

/**
 * A skill's name: the Agent Skills name rule (lowercase letters, digits and hyphens, at most 64,
 * no leading or trailing hyphen). It is also a directory name, so a slug is what keeps
 * `..`, `/` and `_drafts` out of the path.
 */
export const skillNameField = z
  .string()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/,
    'expected a skill name: 1-64 of [a-z0-9-], starting and ending with a letter or digit',
  );

const reasonField = z.string().trim().min(1, 'expected a non-empty reason');

export const skillDraftedShape = {
  name: skillNameField,
  /** The note it was drawn from: `<project>/<query id>` or `<project>/index`. */
  from: z.string().min(1),
  /** The content sha of the memory the note showed. */
  generated_from: sha256Field,
  /** Which writer composed the text. */
  composer: z.enum(['heuristic', 'openai']),
  /** The whole SKILL.md: YAML frontmatter, then the markdown body. */
  text: z
    .string()
    .refine(
      (text) => text.startsWith('---\n') && text.indexOf('\n---\n', 3) > 0 && text.endsWith('\n'),
      'expected a SKILL.md: "---" frontmatter "---", then a body ending in a newline',
    ),
};

export const skillPromotedShape = { name: skillNameField, reason: reasonField };

export const skillRetiredShape = { name: skillNameField, reason: reasonField };
