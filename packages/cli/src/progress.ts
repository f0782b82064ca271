import type { Writable } from 'node:stream';

/**
 * A one-line progress display on a terminal's stderr, redrawn at most every 100 ms and
 * cleared at the end. On a pipe or file it stays silent, so logs never fill with it.
 */
export class ProgressLine {
  private last = 0;
  private shown = false;
  private readonly tty: boolean;

  constructor(private readonly stream: Writable) {
    this.tty = (stream as { isTTY?: boolean }).isTTY === true;
  }

  update(text: string): void {
    if (!this.tty) return;
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    this.shown = true;
    const width = (this.stream as { columns?: number }).columns ?? 100;
    this.stream.write(`\r\x1b[2K${text.slice(0, width - 1)}`);
  }

  done(): void {
    if (this.shown) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }
}
