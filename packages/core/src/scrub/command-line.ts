/**
 * Whether an offset sits on a command line that runs a given program: `-p<secret>` is a password
 * after `mysql` and a flag after `mkdir`. Made once per text in two linear scans (program words,
 * line breaks); each question is then a binary search, so many flags on one long line stay linear.
 */
export function onCommandLineOf(program: RegExp): (whole: string) => (offset: number) => boolean {
  // A program word starts a word, or follows a JSON escape (`\tmysql` in compact JSON).
  const words = new RegExp(
    String.raw`(?:(?<![\w.-])|(?<=\\[nrt]))(?:${program.source})(?![\w-])`,
    'g',
  );
  return (whole) => {
    const programs = [...whole.matchAll(words)].map((m) => m.index);
    // A line ends at a real newline or at a JSON `\n` / `\r` escape (tool inputs are compact JSON).
    const breaks = [...whole.matchAll(/\r|\n|\\[nr]/g)].map((m) => m.index);
    return (offset) => {
      const program = lastBefore(programs, offset);
      return program !== -1 && program > lastBefore(breaks, offset);
    };
  };
}

/** The largest value in sorted `positions` below `offset`, or -1. */
function lastBefore(positions: readonly number[], offset: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (positions[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? -1 : positions[lo - 1]!;
}
