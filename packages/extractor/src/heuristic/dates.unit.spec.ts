import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { bearsDate, datesIn, withoutDates } from './dates.js';
import { DATE_TERM, profileQuestion } from './score.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};

describe('dates a question names and a chunk bears', () => {
  it('reads written dates with a year, and ISO dates', () => {
    expect(datesIn('Session 5 (1:14 pm on 25 May, 2023)')).toEqual([
      { year: 2023, month: 5, day: 25 },
    ]);
    expect(datesIn('What did Joanna recommend on February 7, 2022?')).toEqual([
      { year: 2022, month: 2, day: 7 },
    ]);
    expect(
      datesIn('What event is Nate organizing in June 2022, and on 3rd of Sept. 2022?'),
    ).toEqual([
      { year: 2022, month: 6 },
      { year: 2022, month: 9, day: 3 },
    ]);
    expect(datesIn('released 2024-03-09T10:00:00Z')).toEqual([{ year: 2024, month: 3, day: 9 }]);
    // "may" without a year is a verb, and a month without a year is no date.
    expect(datesIn('It may fail in June; 2022 was a year')).toEqual([]);
  });

  it('takes the date words out of the question terms: one date term of a specific weight', () => {
    expect(withoutDates('Where did Joanna travel to in July 2022?')).toBe(
      'Where did Joanna travel to in  ?',
    );
    const profile = profileQuestion('Where did Joanna travel to in July 2022?');
    expect([...profile.weights.keys()]).toEqual(['joanna', 'travel', DATE_TERM]);
    expect(profile.weights.get(DATE_TERM)).toBe(profile.weights.get('joanna'));
    expect(profileQuestion('Where did Joanna travel?').dates).toEqual([]);
    // An ISO date is blanked too: its parts are no terms beside the date itself.
    expect(withoutDates('What happened on 2022-02-07?')).toBe('What happened on  ?');
    const iso = profileQuestion('What did Joanna watch on 2022-02-07?');
    expect([...iso.weights.keys()]).toEqual(['joanna', 'watch', DATE_TERM]);
  });

  it('matches the month of the year, and the day when the question names one', () => {
    const july = [{ year: 2022, month: 7 }];
    expect(bearsDate(july, [{ year: 2022, month: 7, day: 21 }])).toBe(true);
    expect(bearsDate(july, [{ year: 2023, month: 7, day: 21 }])).toBe(false);
    const seventh = [{ year: 2022, month: 2, day: 7 }];
    expect(bearsDate(seventh, [{ year: 2022, month: 2, day: 7 }])).toBe(true);
    expect(bearsDate(seventh, [{ year: 2022, month: 2, day: 21 }])).toBe(false);
    expect(bearsDate(seventh, [])).toBe(false);
  });

  it('opens the gate on the session dated as the question asks, not on the same words another day', async () => {
    const records: ChunkRecord[] = [
      'Nate: Hi! How was your weekend?',
      'Joanna: I just watched "Little Women" and it was amazing. Definitely a must-see!',
    ].map((text) => ({ role: 'user', text }));
    const gate = async (date: string) => {
      const reply = await heuristicController(words).answer({
        level: 'L1',
        question: 'What did Joanna recommend to Nate on February 7, 2022?',
        memory: '',
        chunk: {
          text: `Session 3 (1:14 pm on ${date})\n\n${records.map((r) => r.text).join('\n')}`,
          records,
        },
        memoryBudget: 200,
      });
      return parseGateAnswer(reply.text);
    };
    const dated = await gate('7 February, 2022');
    expect(dated.update).toBe(true);
    expect(dated.memory).toContain('Little Women');
    expect((await gate('21 March, 2022')).update).toBe(false);
  });
});
