import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted reply of the fake server. */
export type FakeReply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { delayMs: number; status?: number; body?: unknown }
  | { destroy: true };

export interface FakeRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/**
 * A real HTTP server on loopback that answers OpenAI-compatible routes from a script, one
 * reply per request in order (the last reply repeats), and records every request.
 */
export class FakeOpenAI {
  readonly requests: FakeRequest[] = [];
  private server: Server | null = null;
  private readonly script: FakeReply[];

  constructor(script: FakeReply[]) {
    this.script = [...script];
  }

  /** Starts listening and returns the base URL (http://127.0.0.1:<port>). */
  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    this.requests.push({ path: req.url ?? '', headers: req.headers, body: text === '' ? null : JSON.parse(text) });
    const reply = this.script.length > 1 ? this.script.shift()! : this.script[0]!;
    if ('destroy' in reply) {
      req.socket.destroy();
      return;
    }
    if ('delayMs' in reply) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    const status = reply.status ?? 200;
    res.writeHead(status, { 'content-type': 'application/json', ...('headers' in reply ? reply.headers : {}) });
    res.end(JSON.stringify(reply.body ?? {}));
  }
}

/** A chat-completions body whose first choice says `content`. */
export function chatReply(content: string): { status: number; body: unknown } {
  return { status: 200, body: { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] } };
}
