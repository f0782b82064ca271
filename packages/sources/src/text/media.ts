/** Approximate decoded size of a base64 payload. */
export function base64Bytes(length: number): number {
  return Math.floor((length * 3) / 4);
}

/** The text that stands in for a dropped image or document: `[image image/png 68KB]`. */
export function mediaPlaceholder(
  kind: 'image' | 'document',
  mediaType: string | undefined,
  bytes: number,
): string {
  const size = bytes >= 1024 ? `${Math.round(bytes / 1024)}KB` : `${bytes}B`;
  return `[${kind} ${mediaType ?? 'unknown'} ${size}]`;
}

/** Inline `data:<type>;base64,…` URIs long enough to be files rather than icons. */
const DATA_URI = /data:([a-z]+\/[a-z0-9.+-]+);base64,[A-Za-z0-9+/=]{256,}/giu;

/** Replaces inline base64 data URIs by placeholders; `onDrop` is told each one. */
export function stripDataUris(
  text: string,
  onDrop: (kind: 'image' | 'document', bytes: number) => void,
): string {
  if (!text.includes(';base64,')) return text;
  return text.replace(DATA_URI, (match: string, mediaType: string) => {
    const kind = mediaType.toLowerCase().startsWith('image/') ? 'image' : 'document';
    const bytes = base64Bytes(match.length - match.indexOf(',') - 1);
    onDrop(kind, bytes);
    return mediaPlaceholder(kind, mediaType, bytes);
  });
}
