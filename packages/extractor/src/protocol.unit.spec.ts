import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hasErrorCode } from '@mem/core';
import { bulletMemory, formatGateAnswer, parseGateAnswer } from './protocol.js';

describe('parseGateAnswer', () => {
  it('reads the four tags of a well-formed answer', () => {
    const answer = parseGateAnswer(
      '<think>Root cause stated.</think>\n<check>yes</check>\n<update>- Kong buffered bodies.</update>\n<next>continue</next>\n',
    );
    expect(answer).toEqual({
      think: 'Root cause stated.',
      update: true,
      memory: '- Kong buffered bodies.',
      exit: false,
    });
  });

  it('reads a closed gate with an empty update and an exit', () => {
    expect(
      parseGateAnswer('<think>ls output</think><check>no</check><update></update><next>end</next>'),
    ).toEqual({ think: 'ls output', update: false, memory: '', exit: true });
  });

  it.each([
    ['missing next', '<think>x</think><check>yes</check><update>- a</update>'],
    [
      'text outside the tags',
      'Sure! <think>x</think><check>no</check><update></update><next>end</next>',
    ],
    [
      'another check value',
      '<think>x</think><check>maybe</check><update></update><next>end</next>',
    ],
    ['tags out of order', '<check>no</check><think>x</think><update></update><next>end</next>'],
    [
      'an open gate with nothing to write',
      '<think>x</think><check>yes</check><update>  </update><next>continue</next>',
    ],
    [
      'a repeated tag',
      '<think>x</think><check>no</check><update></update><next>end</next><next>end</next>',
    ],
    ['another next value', '<think>x</think><check>no</check><update></update><next>stop</next>'],
  ])('refuses %s with MALFORMED_ANSWER', (_name, text) => {
    expect(() => parseGateAnswer(text)).toThrow(
      expect.objectContaining({ code: 'MALFORMED_ANSWER' }),
    );
  });

  it('round-trips what it formats, and never throws an untyped error on arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/<\/?(?:think|check|update|next)>/.test(s)),
        fc.boolean(),
        fc.string().filter((s) => !/<\/?(?:think|check|update|next)>/.test(s) && s.trim() !== ''),
        fc.boolean(),
        (think, update, memory, exit) => {
          const answer = { think: think.trim(), update, memory: update ? memory.trim() : '', exit };
          expect(parseGateAnswer(formatGateAnswer(answer))).toEqual(answer);
        },
      ),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          parseGateAnswer(text);
        } catch (error) {
          expect(hasErrorCode(error, 'MALFORMED_ANSWER')).toBe(true);
        }
      }),
    );
  });
});

describe('bulletMemory', () => {
  it('writes paragraphs, `*` bullets and numbered items as one `- ` line each', () => {
    expect(
      bulletMemory('Kong buffered bodies.\n\n* The fix was proxy-body-size.\n2. Uploads work.'),
    ).toBe('- Kong buffered bodies.\n- The fix was proxy-body-size.\n- Uploads work.');
  });
});
