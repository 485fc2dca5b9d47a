import WebSocket from 'ws';

/**
 * A socket to the hub at `url` (with the handshake's cookie, as a browser sends it) and `ask`,
 * which sends one frame and resolves with the next one the hub answers.
 */
export async function openSocket(url: string, cookie?: string) {
  const ws = new WebSocket(url, cookie ? { headers: { cookie } } : {});
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const ask = (message: unknown) =>
    new Promise<any>((resolve) => {
      ws.once('message', (data) => resolve(JSON.parse(data.toString())));
      ws.send(JSON.stringify(message));
    });
  return { ws, ask };
}
