import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '@mem/registry';

/*
 * The README's HTTP route table says what the server serves: every route the registry mounts
 * is in it (a reader of the README must not have to read openapi.json to find the item routes).
 */
const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

/** The rows of the table headed `| route | what it does |`. */
function routeTable(): string[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| route | what it does |'));
  expect(start).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start + 2, end);
}

/** A route's path with each parameter's name dropped: `{id}` and `{project}` read the same. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

describe("the README's route table", () => {
  it('names every HTTP route the registry mounts, with its method', () => {
    // Each backticked cell is `[METHOD ]path[?query]`: the paths it names, with their method.
    const named = routeTable().flatMap((row) =>
      [...row.matchAll(/`(?:(GET|POST|DELETE|PATCH|PUT) )?(\/[^`?\s]*)[^`]*`/g)].map(
        (m) => `${m[1] ?? '*'} ${shape(m[2]!)}`,
      ),
    );
    const missing = OPERATIONS.filter((op) => op.http !== undefined)
      .map((op) => `${op.http.method} ${shape(op.http.path)}`)
      .filter((route) => !named.includes(route) && !named.includes(`* ${route.split(' ')[1]}`));
    expect(missing).toEqual([]);
  });
});
