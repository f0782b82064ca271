import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake server received: route, headers and parsed JSON body ({} when empty). */
export interface SeenRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/**
 * What the fake answers a request: a status (default 200) with a JSON body (or a raw string),
 * optionally after a delay; or a connection dropped without an answer.
 */
export type Reply =
  | {
      status?: number;
      json?: unknown;
      raw?: string;
      headers?: Record<string, string>;
      delayMs?: number;
    }
  | { destroy: true };

/**
 * An OpenAI-compatible server on loopback (real node:http) whose answers a test scripts:
 * `respond` sees every request in order (n counts from 1) and returns the reply for it.
 */
export async function fakeOpenai(
  respond: (request: SeenRequest, n: number) => Reply,
): Promise<{ url: string; requests: SeenRequest[]; close(): Promise<void> }> {
  const requests: SeenRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const request: SeenRequest = {
      path: req.url ?? '',
      headers: req.headers,
      body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    };
    requests.push(request);
    const reply = respond(request, requests.length);
    if ('destroy' in reply) {
      req.socket.destroy();
      return;
    }
    if (reply.delayMs !== undefined)
      await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.raw ?? JSON.stringify(reply.json ?? {}));
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** One scripted reply of FakeOpenAI: `body` is the JSON answer. */
export type FakeReply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { delayMs: number; status?: number; body?: unknown }
  | { destroy: true };

/**
 * fakeOpenai answering from a script, one reply per request in order (the last reply repeats),
 * recording every request.
 */
export class FakeOpenAI {
  private server: Awaited<ReturnType<typeof fakeOpenai>> | null = null;
  private readonly script: FakeReply[];

  constructor(script: FakeReply[]) {
    this.script = [...script];
  }

  get requests(): SeenRequest[] {
    return this.server?.requests ?? [];
  }

  /** Starts listening and returns the base URL (http://127.0.0.1:<port>). */
  async start(): Promise<string> {
    this.server = await fakeOpenai(() => {
      const next = this.script.length > 1 ? this.script.shift()! : this.script[0]!;
      return 'destroy' in next ? next : { ...next, json: next.body };
    });
    return this.server.url;
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}

/** A chat-completions body whose first choice says `content`. */
export function chatReply(content: string): { status: number; body: unknown } {
  return {
    status: 200,
    body: {
      id: 'x',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    },
  };
}
