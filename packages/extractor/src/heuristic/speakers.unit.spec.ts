import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { parseGateAnswer } from '../protocol.js';
import { heuristicController } from './controller.js';
import { profileQuestion, scoreSentence } from './score.js';
import { chatSpeakers, speakerOf, withSpeaker, withoutAddress } from './speakers.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};

async function gate(question: string, lines: string[]) {
  const records: ChunkRecord[] = lines.map((text) => ({ role: 'user', text }));
  const reply = await heuristicController(words).answer({
    level: 'L1',
    question,
    memory: '',
    chunk: { text: lines.join('\n'), records },
    memoryBudget: 400,
  });
  return parseGateAnswer(reply.text);
}

describe('the speakers of a labelled chat', () => {
  it('reads the speaker label at the start of a turn', () => {
    expect(speakerOf('Melanie: I painted a sunrise.')).toBe('Melanie');
    expect(speakerOf('Mary Ann: hello there')).toBe('Mary Ann');
    expect(speakerOf('I said: no')).toBeUndefined();
    expect(speakerOf('see https://example.com: it is down')).toBeUndefined();
    expect(withSpeaker('I went hiking.', 'Caroline')).toBe('Caroline: I went hiking.');
    expect(withSpeaker('Caroline: I went hiking.', 'Caroline')).toBe('Caroline: I went hiking.');
  });

  it('is a chat only when every turn is labelled by one of a few speakers', () => {
    expect([
      ...chatSpeakers(['Gina: Hey Jon!', 'Jon: Hi Gina, the studio opens Friday.', 'Gina: Great']),
    ]).toEqual(['Gina', 'Jon']);
    // A transcript whose lines only start with a label word is no chat.
    expect(
      chatSpeakers(['Error: build failed', 'The cache was stale, so I cleared it.']).size,
    ).toBe(0);
    // Every line a different label: a log of fields, not speakers.
    expect(
      chatSpeakers(['Error: x failed', 'Note: retry later', 'Warning: disk full', 'Cause: cache'])
        .size,
    ).toBe(0);
    expect(chatSpeakers(['Gina: alone']).size).toBe(0);
  });

  it('drops a name only where it addresses someone', () => {
    const names = new Set(['Caroline']);
    for (const text of [
      'Wow, Caroline, that parade sounds great!',
      'Hey Caroline! How was the parade?',
      'Thanks, Caroline. How was the parade?',
      'Caroline, that parade sounds great',
      'That parade sounds great, Caroline!',
    ]) {
      const bare = withoutAddress(text, names);
      expect(bare, text).not.toContain('Caroline');
      expect(bare, text).toContain('parade');
    }
    // A name said about someone stays: it is what the sentence is about.
    for (const text of [
      "Caroline's necklace is from Sweden.",
      'I told Caroline about the parade.',
      'Caroline went to the parade last week.',
      'The parade was great, Caroline said',
      'We met Caroline and her kids at the beach.',
      // Said to her in the second person, the sentence is about her (a reviewer's input).
      'Caroline, congrats on your new job at the animal shelter!',
      'That was brave of you, Caroline!',
      'That parade sounds great for you, Caroline!',
    ])
      expect(withoutAddress(text, names), text).toBe(text);
  });
});

describe('a factual question asked of a labelled chat', () => {
  it('keeps the gate shut on a turn that only addresses the person asked about', async () => {
    const answer = await gate('What parades has Caroline marched in?', [
      'Caroline: Hi Melanie, how was your week?',
      'Melanie: Busy with the kids and work.',
      'Melanie: Wow, Caroline, the parades downtown looked awesome on the news!',
      'Melanie: The kids loved the floats too.',
      'Melanie: Talk soon!',
    ]);
    expect(answer.update).toBe(false);
  });

  it('judges a later sentence of a long turn as said by its speaker', async () => {
    const answer = await gate('What parades has Caroline marched in?', [
      'Melanie: Hi! How was your week?',
      [
        'Caroline: Oh, it was such a long and busy week with work and everything else going on,',
        'and I barely had a minute to breathe between meetings, errands and calls with my family,',
        'but I still made it out on the weekend and it was so worth it.',
        'I went to the pride parade downtown with my friends from the support group.',
      ].join(' '),
      'Melanie: That sounds lovely.',
      'Melanie: The kids and I stayed home.',
    ]);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('pride parade');
  });

  it('opens the gate on a coding transcript with a decision that answers how something works', async () => {
    const reason =
      'We decided to verify the Stripe signature before parsing the body because a forged event could reach the handler.';
    const records: ChunkRecord[] = [
      { role: 'user', text: 'Add the webhook endpoint.' },
      { role: 'assistant', text: reason },
      { role: 'assistant', text: 'Now let me run the tests.' },
    ];
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: 'How does the Stripe webhook integration work?',
      memory: '',
      chunk: { text: records.map((r) => r.text).join('\n'), records },
      memoryBudget: 400,
    });
    const answer = parseGateAnswer(reply.text);
    expect(answer.update).toBe(true);
    expect(answer.memory).toContain('verify the Stripe signature');
  });

  it('judges a sentence by its terms alone: a cue word of a kind not asked adds nothing', () => {
    const factual = profileQuestion('When did Melanie paint a sunrise?');
    const plain = scoreSentence(factual, 'Melanie: I painted a sunrise by the lake.');
    for (const cued of [
      'Melanie: I painted a sunrise by the lake because I decided to.',
      'Melanie: Did I paint a sunrise by the lake, the one that caused the error?',
    ])
      expect(scoreSentence(factual, cued).score, cued).toBe(plain.score);
    // Outside a labelled chat (a coding transcript) a factual question keeps them: a decision's
    // reason answers "How does … work?" (a reviewer's input).
    const how = profileQuestion('How does the Stripe webhook integration work?');
    const reason =
      'We decided to verify the Stripe signature before parsing the body because a forged event could reach the handler.';
    expect(scoreSentence(how, reason, undefined, undefined, false).score).toBeGreaterThan(
      scoreSentence(how, reason, undefined, undefined, true).score,
    );
    // A standing question still weighs its cues: they are the kind of evidence it asks for.
    const bugs = profileQuestion('What bugs were found and what was the root cause?');
    expect(
      scoreSentence(bugs, 'The build failed because the cache was stale.').score,
    ).toBeGreaterThan(scoreSentence(bugs, 'The build ran after the cache was cleared.').score);
  });
});
