import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { screenLine } from './jsonrpc-screen.js';

/** The largest line buffered while waiting for its newline (the SDK's own stdio limit). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * MCP's stdio transport (newline-delimited JSON-RPC), with two things the SDK's
 * StdioServerTransport lacks: a malformed line gets its JSON-RPC error answer instead of
 * silence (see `screenLine`), and the end of stdin closes the transport, so the server's
 * `onclose` fires and `mem mcp` can release the data root and exit 0.
 */
export class ScreenedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer = '';
  private closed = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly log: (line: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    this.stdin.setEncoding('utf8');
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
    this.stdin.once('end', this.onEnd);
    this.stdin.once('close', this.onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const line = `${JSON.stringify(message)}\n`;
    if (!this.stdout.write(line))
      await new Promise<void>((resolve) => this.stdout.once('drain', resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdin.pause();
    this.buffer = '';
    this.onclose?.();
  }

  private readonly onData = (chunk: string): void => {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      this.handle(line);
    }
    if (Buffer.byteLength(this.buffer) > MAX_LINE_BYTES) {
      this.buffer = '';
      const message = `Invalid Request: a line over ${MAX_LINE_BYTES} bytes; it was dropped`;
      void this.send({
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.InvalidRequest, message },
      } as unknown as JSONRPCMessage);
    }
  };

  private handle(line: string): void {
    const screened = screenLine(line);
    if ('message' in screened) this.onmessage?.(screened.message);
    else if ('reply' in screened) void this.send(screened.reply as unknown as JSONRPCMessage);
    else if (screened.ignore !== 'blank line') this.log(`mcp: ignored ${screened.ignore}`);
  }

  private readonly onError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** The client closed its end: no more requests can come. Whatever is half a line is dropped. */
  private readonly onEnd = (): void => {
    void this.close();
  };
}
