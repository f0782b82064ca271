import { describe, expect, it } from 'vitest';
import { STATEMENT_SQL } from './statements.js';
import { KEEPS_TEXT, TEXT_REWRITES } from './text-rewrites.js';

/** The columns a statement of KEEPS_TEXT may assign: marks, never a text. */
const MARKS = new Set(['superseded_by', 'deleted_at']);

describe('statements that keep every text', () => {
  it('only insert, or update node setting superseded_by or deleted_at, and delete nothing', () => {
    for (const name of KEEPS_TEXT) {
      const sql = STATEMENT_SQL[name];
      expect(sql, name).not.toMatch(/\bDELETE\b/i);
      const update = /\bUPDATE\s+(\w+)\s+SET\s+(\w+)\s*=/i.exec(sql);
      if (!update) {
        expect(sql, name).toMatch(/^\s*(WITH\b[\s\S]*)?\bINSERT INTO\b/i);
        continue;
      }
      expect(update[1], name).toBe('node');
      expect(MARKS.has(update[2]!), name).toBe(true);
      // No second assignment after the SET: each other `column =` names a qualified column or
      // sits inside a condition.
      const assigned = [...sql.matchAll(/(?:SET|,)\s*(\w+)\s*=(?!=)/gi)].map((m) => m[1]!);
      for (const column of assigned) expect(MARKS.has(column), `${name}: ${column}`).toBe(true);
    }
  });

  it('are not counted as rewrites, and the statements that drop text still are', () => {
    for (const name of KEEPS_TEXT) expect(TEXT_REWRITES.has(name)).toBe(false);
    for (const name of ['forgetLineNode', 'forgetMemoryLines', 'forgetMemory'] as const)
      expect(TEXT_REWRITES.has(name)).toBe(true);
  });
});
