import { describe, expect, it } from 'vitest';
import { summarySections } from './summary.js';

describe('summarySections', () => {
  it('keeps the heading path on each section, so a "###" knows the "##" it sits under', () => {
    const text = [
      '# Context Checkpoint Summary',
      '## Key Architecture Decisions',
      '### API Key Resolution Priority',
      '1. settings.json apiKeys',
      '2. Environment variables',
      '### Avoiding Global State',
      '- AgentSession takes an injected resolver',
      '## Important Files',
      '- sdk.ts - the SDK',
      '**Errors and fixes:**',
      '- a stale build',
    ].join('\n');
    expect(summarySections(text)).toEqual([
      { heading: 'Context Checkpoint Summary', text: '' },
      {
        heading: 'Key Architecture Decisions',
        text: '',
        path: ['Context Checkpoint Summary'],
      },
      {
        heading: 'API Key Resolution Priority',
        text: '1. settings.json apiKeys\n2. Environment variables',
        path: ['Context Checkpoint Summary', 'Key Architecture Decisions'],
      },
      {
        heading: 'Avoiding Global State',
        text: '- AgentSession takes an injected resolver',
        path: ['Context Checkpoint Summary', 'Key Architecture Decisions'],
      },
      {
        heading: 'Important Files',
        text: '- sdk.ts - the SDK',
        path: ['Context Checkpoint Summary'],
      },
      // A bold heading has no level: it sits under the markdown headings still open.
      {
        heading: 'Errors and fixes',
        text: '- a stale build',
        path: ['Context Checkpoint Summary', 'Important Files'],
      },
    ]);
  });

  it('gives a top-level section no path', () => {
    expect(summarySections('1. Primary Request:\n   Build it\n2. Key Concepts:\n   - a')).toEqual([
      { heading: '1. Primary Request', text: 'Build it' },
      { heading: '2. Key Concepts', text: '- a' },
    ]);
  });
});
