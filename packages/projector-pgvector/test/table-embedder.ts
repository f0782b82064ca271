import type { Embedder } from '@mem/embed';

/**
 * A test embedder with hand-written vectors: each known text maps to its vector; any other
 * text is refused, so a test cannot embed something it did not mean to.
 */
export function tableEmbedder(table: Record<string, readonly number[]>, dims = 3): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    name: `table-${dims}`,
    dims,
    calls,
    async embed(texts) {
      calls.push([...texts]);
      return texts.map((text) => {
        const vector = table[text];
        if (!vector) throw new Error(`tableEmbedder: no vector for ${JSON.stringify(text)}`);
        return Float32Array.from(vector);
      });
    },
  };
}
