import { afterEach } from 'vitest';
import { fakeOpenai, type Reply, type SeenRequest } from '../../../test/support/fake-openai.js';

export { fakeOpenai, type Reply, type SeenRequest };

/** An embeddings answer for `input` (index order reversed, as a server may answer), `dims` values each. */
export function embeddingsReply(input: readonly string[], dims: number): Reply {
  const data = input.map((text, index) => ({
    object: 'embedding',
    index,
    embedding: Array.from({ length: dims }, (_, d) => (text.length + d) / 100),
  }));
  return { status: 200, json: { object: 'list', data: data.reverse(), model: 'fake' } };
}

/** For a test file: `serve(respond)` starts a fake server that is closed after each test. */
export function useFakeOpenai(): (
  respond: (request: SeenRequest, n: number) => Reply,
) => ReturnType<typeof fakeOpenai> {
  const servers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  return async (respond) => {
    const server = await fakeOpenai(respond);
    servers.push(server);
    return server;
  };
}
