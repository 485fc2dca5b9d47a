import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRealtimeHub, type RealtimeHubOptions } from '../../server/realtime/hub.ts';

/**
 * A realtime hub over its own http server on a free local port, upgrading `/ws` as
 * server/backend.ts does (any other upgrade is refused; plain requests get an empty answer).
 * `url` is the socket address, `origin` the server's; `close()` stops the hub, then the server.
 */
export async function startHub(options: RealtimeHubOptions) {
  const hub = createRealtimeHub(options);
  const server = createServer((_req, res) => res.end());
  server.on('upgrade', (req, socket, head) => {
    if (!hub.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    hub,
    port,
    origin,
    url: `ws://127.0.0.1:${port}/ws`,
    async close() {
      await hub.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type StartedHub = Awaited<ReturnType<typeof startHub>>;
