import type { z } from 'zod';
import { MemError } from '../errors.js';
import { CONFIG_VARIABLES, type ConfigVariableName } from './variables.js';

/**
 * mem's configuration, typed: each variable parsed, absent when unset (the part that uses it
 * applies the default the table names). Plain data, so it crosses to a worker thread as is.
 */
export type MemConfig = {
  readonly [K in ConfigVariableName]?: z.output<(typeof CONFIG_VARIABLES)[K]['schema']>;
};

/** Values a command's flags give; each wins over its variable. */
export type ConfigFlags = { readonly [K in ConfigVariableName]?: string | undefined };

/**
 * Reads every variable of CONFIG_VARIABLES from `env`, a flag's value winning. A bad value is
 * CONFIG_INVALID naming the variable and what was wrong: nothing starts on a guess.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  flags: ConfigFlags = {},
): MemConfig {
  const config: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(CONFIG_VARIABLES) as [
    ConfigVariableName,
    (typeof CONFIG_VARIABLES)[ConfigVariableName],
  ][]) {
    const raw = flags[name] ?? env[name];
    if (raw === undefined || (raw === '' && !('emptyIsValue' in variable && variable.emptyIsValue)))
      continue;
    const parsed = (variable.schema as z.ZodType<unknown, string>).safeParse(raw);
    if (!parsed.success) {
      throw new MemError(
        'CONFIG_INVALID',
        `${name}=${JSON.stringify(raw)}: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
        { variable: name, value: raw },
      );
    }
    config[name] = parsed.data;
  }
  return config;
}
