import { describe, expect, it } from 'vitest';
import { loopFileIdentity } from './identity.js';

describe('loopFileIdentity', () => {
  it.each([
    ['T-42/1-coder.jsonl', { task: 'T-42', attempt: '1', agent: 'coder' }],
    ['T-42/attempt-02-reviewer.jsonl', { task: 'T-42', attempt: '2', agent: 'reviewer' }],
    ['T-42/attempt-3/coder.jsonl', { task: 'T-42', attempt: '3', agent: 'coder' }],
    ['T-42/review.jsonl', { task: 'T-42', attempt: '1', agent: 'reviewer' }],
    ['T-42/final.jsonl', { task: 'T-42', attempt: 'final', agent: 'agent' }],
    ['2-coder.jsonl', { task: 'root-task', attempt: '2', agent: 'coder' }],
  ])('%s', (path, expected) => {
    expect(loopFileIdentity(path, 'root-task')).toEqual(expected);
  });
});
