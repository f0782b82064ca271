import { describe, expect, it } from 'vitest';
import { composeHeuristic } from './compose-heuristic.js';
import { skillText, type SkillSource } from './skill-input.js';

const source: SkillSource = {
  name: 'uploads',
  project: 'alpha',
  from: 'alpha/bugs',
  memory: 'a'.repeat(64),
  title: 'Bugs and root causes',
  lines: [
    'Uploads failed with 413 because the proxy body buffer was 8KB',
    'fixed by setting client_body_buffer_size to 16k;',
    'Decided to run the upload smoke test after every deploy.',
    'The retry loop crashed when the token expired mid-upload',
    'The gateway is nginx 1.25',
  ],
};

describe('composeHeuristic', () => {
  it('numbers steps from the fix and decision lines, in note order, as sentences', () => {
    const { body } = composeHeuristic(source);
    expect(body).toContain(
      [
        '## Steps',
        '',
        '1. Fixed by setting client_body_buffer_size to 16k.',
        '2. Decided to run the upload smoke test after every deploy.',
      ].join('\n'),
    );
  });

  it('lists what to check from the failure lines that say no fix, and the rest as context', () => {
    const { body } = composeHeuristic(source);
    expect(body).toContain(
      [
        '## Check',
        '',
        '- Uploads failed with 413 because the proxy body buffer was 8KB.',
        '- The retry loop crashed when the token expired mid-upload.',
      ].join('\n'),
    );
    expect(body).toContain('## Context\n\n- The gateway is nginx 1.25.');
    expect(
      body.endsWith(
        'Drawn from the memory note alpha/bugs; read it for the evidence behind each line.',
      ),
    ).toBe(true);
  });

  it('leaves out a section with no line, and describes the skill by its first step', () => {
    const parts = composeHeuristic({ ...source, lines: ['Always pin the base image'] });
    expect(parts.body).not.toContain('## Check');
    expect(parts.body).not.toContain('## Context');
    expect(parts.description).toBe(
      'What to do about bugs and root causes in alpha: Always pin the base image.',
    );
  });

  it('says when to use it from the failures it fixes, each cut before its cause or fix, not by the title', () => {
    const { when_to_use, body } = composeHeuristic(source);
    expect(when_to_use).toBe(
      'When one of these shows up in alpha: Uploads failed with 413; The retry loop crashed when the token expired mid-upload.',
    );
    expect(when_to_use).not.toMatch(/bugs and root causes/i);
    expect(body.split('\n')[2]).toBe(when_to_use);
  });

  it('says when to use a skill that fixes no failure from what its lines settle', () => {
    const { when_to_use } = composeHeuristic({
      ...source,
      lines: ['Always pin the base image', 'The gateway is nginx 1.25'],
    });
    expect(when_to_use).toBe(
      'When about to act on what this settles in alpha: Always pin the base image.',
    );
  });

  it('is stable: the same lines compose the same bytes', () => {
    const once = skillText(source, composeHeuristic(source));
    expect(skillText({ ...source, lines: [...source.lines] }, composeHeuristic(source))).toBe(once);
    expect(once).toMatch(/^---\nname: "uploads"\n/);
    expect(once.endsWith('\n')).toBe(true);
  });
});
