// The loader-thread half of module-trace.mjs: one line per resolved URL.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (file) appendFileSync(file, `${resolved.url}\t${context.parentURL ?? ''}\n`);
  return resolved;
}
