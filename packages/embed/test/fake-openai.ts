import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake server received: route, headers and parsed JSON body. */
export interface SeenRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** What the fake answers: a status and a JSON body (or a raw string), per request. */
export type Reply = { status: number; json?: unknown; raw?: string; headers?: Record<string, string> };

/**
 * An OpenAI-compatible server on loopback (real node:http) whose answers a test scripts:
 * `respond` sees every request in order and returns the reply for it.
 */
export async function fakeOpenai(respond: (request: SeenRequest, n: number) => Reply): Promise<{ url: string; requests: SeenRequest[]; close(): Promise<void> }> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => {
      const request: SeenRequest = { path: req.url ?? '', headers: req.headers, body: data ? (JSON.parse(data) as Record<string, unknown>) : {} };
      requests.push(request);
      const reply = respond(request, requests.length);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.raw ?? JSON.stringify(reply.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** An embeddings answer for `input` (index order reversed, as a server may answer), `dims` values each. */
export function embeddingsReply(input: readonly string[], dims: number): Reply {
  const data = input.map((text, index) => ({ object: 'embedding', index, embedding: Array.from({ length: dims }, (_, d) => (text.length + d) / 100) }));
  return { status: 200, json: { object: 'list', data: data.reverse(), model: 'fake' } };
}
