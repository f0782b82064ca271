import type { AddressInfo } from 'node:net';
import { serve as serveNode, type ServerType } from '@hono/node-server';
import type { Registry } from '@mem/registry';
import { createApp, type AppOptions } from './app.js';

export interface ServeOptions extends AppOptions {
  port: number;
  /** Default 127.0.0.1: reachable from other machines only when asked for. */
  host?: string;
}

/** A listening server; `close` stops it (open connections end) and resolves when it has. */
export interface RunningServer {
  url: string;
  port: number;
  host: string;
  close(): Promise<void>;
}

/** Serves the registry over HTTP on `host:port` (port 0: any free port). */
export function startServer(registry: Registry, options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const app = createApp(registry, options);
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    const server: ServerType = serveNode(
      { fetch: app.fetch, port: options.port, hostname: host },
      (info: AddressInfo) => {
        server.off('error', onError);
        const shown = host.includes(':') ? `[${host}]` : host;
        resolve({
          url: `http://${shown}:${info.port}`,
          port: info.port,
          host,
          close: () =>
            new Promise<void>((done) => {
              (server as { closeAllConnections?: () => void }).closeAllConnections?.();
              server.close(() => done());
            }),
        });
      },
    );
    server.once('error', onError);
  });
}
