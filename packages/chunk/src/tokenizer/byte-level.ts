/**
 * GPT-2 byte-level alphabet: the printable character that stands for each byte in a
 * byte-level BPE vocabulary (bytes that are printable Latin-1 stand for themselves; the others
 * are shifted to U+0100 upwards).
 */
export function byteLevelAlphabet(): string[] {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const alphabet = new Array<string>(256);
  for (const b of printable) alphabet[b] = String.fromCharCode(b);
  let shifted = 0;
  for (let b = 0; b < 256; b++) {
    if (alphabet[b] === undefined) {
      alphabet[b] = String.fromCharCode(256 + shifted);
      shifted += 1;
    }
  }
  return alphabet;
}
