import { JSONParser } from '@streamparser/json';

/** What one line held: zero or more JSON values, and whether some of it was not JSON. */
export interface ParsedLine {
  values: unknown[];
  /** True when part or all of the line could not be parsed. */
  invalid: boolean;
  /** True when the line held more than one JSON value glued together. */
  glued: boolean;
}

/**
 * Parses one transcript line. The fast path is `JSON.parse`; only when that fails is the line
 * handed to a streaming parser that reads concatenated values (`{…}{…}`), because real pi files
 * contain lines where a resumed session appended an entry without a newline (research §3.2).
 */
export function parseLine(text: string): ParsedLine {
  try {
    return { values: [JSON.parse(text)], invalid: false, glued: false };
  } catch {
    return recoverGlued(text);
  }
}

function recoverGlued(text: string): ParsedLine {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return { values: [], invalid: true, glued: false };
  const values: unknown[] = [];
  let failed = false;
  try {
    // separator '' reads back-to-back values; paths ['$'] emits only top-level values.
    const parser = new JSONParser({ separator: '', paths: ['$'], keepStack: false });
    parser.onValue = ({ value }) => {
      values.push(value);
    };
    parser.onError = () => {
      failed = true;
    };
    parser.write(text);
    if (!failed && !parser.isEnded) parser.end();
  } catch {
    failed = true;
  }
  return { values, invalid: failed || values.length === 0, glued: values.length > 1 };
}
