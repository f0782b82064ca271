/**
 * A float32 vector as pgvector's text input, `[x,y,...]`. Nine significant digits always
 * round-trip a float32 (FLT_DECIMAL_DIG), and pgvector parses with strtof, so the stored
 * float is exactly the embedder's: a rebuild stores the same bytes. (Measured: toPrecision(9)
 * is both shorter and faster than String() of the widened double.)
 */
export function vectorLiteral(vector: Float32Array): string {
  const parts = new Array<string>(vector.length);
  for (let i = 0; i < vector.length; i++) parts[i] = vector[i]!.toPrecision(9);
  return `[${parts.join(',')}]`;
}
