/*
 * Who says a line in a chat whose turns are labelled with their speaker ("Melanie: I ran into a
 * group of religious conservatives …"), and whom a line only addresses ("Wow, Caroline!").
 */

/** A turn's speaker label: one or two capitalised words and a colon at the start of the record. */
const LABEL = /^(\p{Lu}[\p{L}'’-]{0,30}(?: \p{Lu}[\p{L}'’-]{0,30})?):\s/u;

/** The speaker a record's text is labelled with, if any. */
export function speakerOf(text: string): string | undefined {
  return LABEL.exec(text)?.[1];
}

/**
 * The speakers of a chat: the labels of a chunk whose every prose record is labelled and whose
 * labels are few (a conversation, not a log of "Error:" / "Note:" lines). Empty otherwise.
 */
export function chatSpeakers(texts: readonly string[]): Set<string> {
  const labels = texts.map(speakerOf);
  if (texts.length < 2 || labels.some((l) => l === undefined)) return new Set();
  const names = new Set(labels as string[]);
  return names.size <= 4 && names.size < texts.length ? names : new Set();
}

const INTERJECTION =
  '(?:hey|hi|hello|heya|hiya|yo|thanks|thank you|thx|wow|whoa|oh|ooh|aw|aww|ah|yeah|yes|yep|no|nope|ok|okay|sure|congrats|congratulations|sorry|bye|goodbye|great|awesome|cool|nice|good|dear|haha|lol|well|right|totally|absolutely|exactly|definitely)';

/**
 * The text without the names of `names` where they only address someone: after a greeting or
 * an interjection ("Hey Caroline!", "Thanks, Mel", "Wow, Caroline,") or set off as a vocative
 * at the start or end of a clause ("Caroline, that sounds great", "… for you, Jon!").
 */
export function withoutAddress(text: string, names: ReadonlySet<string>): string {
  // A sentence that speaks of its addressee ("Caroline, congrats on your new job") is about them.
  if (/\b(?:you|your|yours|yourself)\b/iu.test(text)) return text;
  let out = text;
  for (const name of names) {
    const first = escape(name.split(' ')[0]!);
    const vocative = new RegExp(
      `(\\b${INTERJECTION}[,!.]?\\s+|(?:^|[,.!?;:]\\s*))${first}(?=\\s*(?:[,!.?;]|$))`,
      'giu',
    );
    out = out.replace(vocative, '$1');
  }
  return out;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The sentence as its speaker says it: labelled with their name unless it already is. */
export function withSpeaker(sentence: string, speaker: string): string {
  return speakerOf(sentence) === undefined ? `${speaker}: ${sentence}` : sentence;
}
