import type { Tokenizer } from '../tokenizer/tokenizer.js';

/** One token per code point: additive everywhere, so expected packings are easy to state. */
export const charTokenizer: Tokenizer = {
  name: 'chars',
  count: (text) => {
    let n = text.length;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
        const p = text.charCodeAt(i - 1);
        if (p >= 0xd800 && p <= 0xdbff) n -= 1;
      }
    }
    return n;
  },
};
