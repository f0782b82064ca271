import { CONFIG_VARIABLES } from './variables.js';

/** The README's configuration table, one row per variable: the README is tested to hold exactly this. */
export function renderConfigTable(): string {
  const rows = Object.entries(CONFIG_VARIABLES).map(
    ([name, variable]) => `| \`${name}\` | ${variable.default} | ${variable.description} |`,
  );
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
