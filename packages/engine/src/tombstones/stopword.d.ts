declare module 'stopword' {
  /** English stopwords. */
  export const eng: readonly string[];
}
