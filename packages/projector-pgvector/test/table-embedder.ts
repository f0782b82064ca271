import type { EmbedRole, Embedder } from '@mem/embed';

/**
 * A test embedder with hand-written vectors: each known text maps to its vector; any other
 * text is refused, so a test cannot embed something it did not mean to. `roles` records what each call embedded as.
 */
export function tableEmbedder(
  table: Record<string, readonly number[]>,
  dims = 3,
): Embedder & { calls: string[][]; roles: EmbedRole[] } {
  const calls: string[][] = [];
  const roles: EmbedRole[] = [];
  return {
    name: `table-${dims}`,
    dims,
    calls,
    roles,
    async embed(texts, role) {
      calls.push([...texts]);
      roles.push(role);
      return texts.map((text) => {
        const vector = table[text];
        if (!vector) throw new Error(`tableEmbedder: no vector for ${JSON.stringify(text)}`);
        return Float32Array.from(vector);
      });
    },
  };
}
