import { describe, expect, it } from 'vitest';
import { cwdWithin } from './session-cwd.js';

describe('cwdWithin: a session directory against the project directory, as written', () => {
  it('is the directory itself or one under it, a trailing separator ignored', () => {
    expect(cwdWithin('/home/dev/app', '/home/dev/app')).toBe(true);
    expect(cwdWithin('/home/dev/app/', '/home/dev/app')).toBe(true);
    expect(cwdWithin('/home/dev/app/src', '/home/dev/app/')).toBe(true);
    expect(cwdWithin('/anything', '/')).toBe(true);
  });

  it('is never a sibling whose name starts the same, nor a parent', () => {
    expect(cwdWithin('/home/dev/app2', '/home/dev/app')).toBe(false);
    expect(cwdWithin('/home/dev', '/home/dev/app')).toBe(false);
    expect(cwdWithin('/home/dev/ap', '/home/dev/app')).toBe(false);
  });

  it('reads Windows paths too: Codex runs there and records C:\\…', () => {
    expect(cwdWithin('C:\\Users\\me\\app\\src', 'C:\\Users\\me\\app')).toBe(true);
    expect(cwdWithin('C:\\Users\\me\\app2', 'C:\\Users\\me\\app')).toBe(false);
    expect(cwdWithin('C:\\Users\\me', 'C:\\')).toBe(true);
  });
});
