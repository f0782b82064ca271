import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, renderConfigTable } from '@mem/core';

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

/** The table under `## Configuration`: its rows as `variable → default`. */
function documented(): Map<string, string> {
  const section = /^## Configuration\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = /^\| `([A-Z_]+)` \|(.*?)\|/.exec(line);
    if (cells) rows.set(cells[1]!, cells[2]!.trim());
  }
  return rows;
}

describe("the README's configuration table", () => {
  it('names every variable loadConfig reads, with its default, and no other', () => {
    const inSchema = new Map(
      Object.entries(CONFIG_VARIABLES).map(([name, variable]) => [name, variable.default]),
    );
    expect(Object.fromEntries(documented())).toEqual(Object.fromEntries(inSchema));
  });

  it('is the table the schema renders (descriptions included)', () => {
    expect(readme).toContain(renderConfigTable());
  });
});
