import { afterEach, describe, expect, it } from 'vitest';
import { ANY_TRIGGER } from './patterns.js';
import { scrubStrings } from './strings.js';

const key = `sk-ant-${'a1B2c3D4'.repeat(6)}`;

afterEach(() => {
  delete (ANY_TRIGGER as { test?: unknown }).test;
});

/** Counts the trigger scans scrubStrings makes. */
function countScans(): () => number {
  let scans = 0;
  const exec = (text: string) => RegExp.prototype.test.call(ANY_TRIGGER, text);
  Object.defineProperty(ANY_TRIGGER, 'test', {
    configurable: true,
    value: (text: string) => {
      scans += 1;
      return exec(text);
    },
  });
  return () => scans;
}

describe('scrubStrings', () => {
  it('clears a payload without a candidate in one trigger scan, and gives it back as it was', () => {
    const payload = { type: 'tombstone', target: 'b'.repeat(64), reason: 'no secret here' };
    const scans = countScans();
    expect(scrubStrings(payload)).toBe(payload);
    expect(scans()).toBe(1);
  });

  it('scrubs every string holding a secret, at any depth, and leaves the rest as they were', () => {
    const lines = [{ sha256: 'c'.repeat(64), parents: ['p1'] }];
    const payload = { type: 'memory', text: `key ${key}`, lines, meta: { note: [`x ${key}`] } };
    const scrubbed = scrubStrings(payload) as typeof payload;
    expect(scrubbed).not.toBe(payload);
    expect(JSON.stringify(scrubbed)).not.toContain(key);
    expect(scrubbed.text).toMatch(/^key \[REDACTED:/);
    expect(scrubbed.meta.note[0]).toMatch(/^x \[REDACTED:/);
    expect(scrubbed.lines).toBe(lines);
    expect(scrubbed.type).toBe('memory');
  });

  it('keeps a candidate that only spans two strings from changing either', () => {
    // The one scan sees the strings together; a trigger across their join is no secret.
    const payload = { a: 'http:', b: '//example.org' };
    expect(scrubStrings(payload)).toEqual(payload);
  });

  it('keeps a __proto__ key a key when it copies', () => {
    const payload = JSON.parse(`{"__proto__": "x", "text": "t ${key}"}`) as Record<string, unknown>;
    const scrubbed = scrubStrings(payload) as Record<string, unknown>;
    expect(Object.keys(scrubbed)).toEqual(['__proto__', 'text']);
    expect(Object.getPrototypeOf(scrubbed)).toBe(Object.prototype);
  });
});
