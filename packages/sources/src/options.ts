/** Knobs every adapter takes; all optional. */
export interface AdapterOptions {
  /** Tool calls and results longer than this many characters keep head + tail. Default 4000. */
  toolTextCap?: number;
  /** Keep model thinking text (signatures are always dropped). Default true. */
  thinking?: boolean;
  /** Lines longer than this many bytes are skipped as `oversize-line`. Default 64 MiB. */
  maxLineBytes?: number;
}

export interface ResolvedOptions {
  toolTextCap: number;
  thinking: boolean;
  maxLineBytes: number;
}

export const DEFAULT_TOOL_TEXT_CAP = 4000;
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export function resolveOptions(options: AdapterOptions = {}): ResolvedOptions {
  return {
    toolTextCap: options.toolTextCap ?? DEFAULT_TOOL_TEXT_CAP,
    thinking: options.thinking ?? true,
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
  };
}
