/** Where an input came from, so errors can name it: a file, a 1-based line. */
export interface InputLocation {
  file?: string;
  line?: number;
}

/** `file:line N: `, or what of it is known, as the prefix of an error message. */
export function where(location: InputLocation): string {
  const parts: string[] = [];
  if (location.file !== undefined) parts.push(location.file);
  if (location.line !== undefined) parts.push(`line ${location.line}`);
  return parts.length > 0 ? `${parts.join(':')}: ` : '';
}
