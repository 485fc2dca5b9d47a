// The browser's side of the realtime hub with push keys (spec sections 7 and 8), framework-free
// so the header bell of every page can use it and tests can run it in Node against a real hub:
//
// - on open it asks `authorize()` for an `auth_key` (POST /trade/push-authorize/{id}), presents
//   it, then subscribes its channels;
// - a heartbeat (`ping`) every `heartbeatMs`; an ACCESS_DENIED frame (the key expired, or the
//   session behind the socket ended: sign-out, ban, "end other sessions") asks
//   `reauthorize(channels)` (POST /account/re-auth-push-subscription) for a new key and joins
//   again: a browser signed in afresh gets one, a signed-out one does not and its channels fail;
// - a refused channel is retried up to 3 times, waiting attempt × 1 s; a dropped socket likewise;
//   a successful subscription resets the count.

export interface RealtimeEvent {
  type: string;
  payload?: unknown;
}

export interface RealtimeClientOptions {
  url: string;
  channels: readonly string[];
  onEvent(channel: string, event: RealtimeEvent): void;
  /** The first key; without it the socket relies on its session cookie. */
  authorize?: () => Promise<string | undefined>;
  /** A new key after ACCESS_DENIED. */
  reauthorize?: (channels: readonly string[]) => Promise<string | undefined>;
  /** `failed`: the retries are spent. */
  onStatus?(channel: string, status: 'subscribed' | 'failed'): void;
  heartbeatMs?: number;
  /** The spec's 1 s; tests shorten it. */
  retryDelayMs?: number;
  /** Where waits are scheduled (tests record them). */
  schedule?: (run: () => void, ms: number) => unknown;
  WebSocketImpl?: typeof WebSocket;
}

export const MAX_RETRIES = 3;

interface Frame {
  type?: string;
  channel?: string;
  code?: string;
  channels?: string[];
  event?: RealtimeEvent;
}

function parseFrame(data: unknown): Frame | undefined {
  try {
    return JSON.parse(String(data));
  } catch {
    return undefined;
  }
}

function send(ws: WebSocket, message: unknown): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

function subscribeAll(ws: WebSocket, list: readonly string[]): void {
  for (const channel of list) send(ws, { type: 'subscribe', channel });
}

/** Attempt n waits n × the delay; after the third the key is given up. Key '' counts reconnects of the socket. */
function createRetries(
  schedule: (run: () => void, ms: number) => unknown,
  retryDelayMs: number,
  stopped: () => boolean,
) {
  const attempts = new Map<string, number>();
  return {
    retry(key: string, run: () => void, failed: () => void) {
      const n = (attempts.get(key) ?? 0) + 1;
      if (n > MAX_RETRIES) return failed();
      attempts.set(key, n);
      schedule(() => {
        if (!stopped()) run();
      }, n * retryDelayMs);
    },
    reset: (key: string) => attempts.delete(key),
  };
}

export function createRealtimeClient(options: RealtimeClientOptions): { close(): void } {
  const {
    url,
    channels,
    onEvent,
    authorize,
    reauthorize,
    onStatus = () => {},
    heartbeatMs = 25_000,
    retryDelayMs = 1000,
    schedule = (run, ms) => setTimeout(run, ms),
    WebSocketImpl = WebSocket,
  } = options;
  let socket: WebSocket | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  const { retry, reset } = createRetries(schedule, retryDelayMs, () => stopped);

  /** Gives up on every channel of the list. */
  const failAll = (list: readonly string[]) => () => {
    for (const c of list) onStatus(c, 'failed');
  };
  const present = async (ws: WebSocket, key: Promise<string | undefined> | undefined, list: readonly string[]) => {
    const authKey = await key?.catch(() => undefined);
    if (ws !== socket) return;
    if (authKey) send(ws, { type: 'auth', key: authKey });
    // The hub answers in order: `authorized` comes before the subscriptions are judged.
    subscribeAll(ws, list);
  };

  function connect() {
    const ws = new WebSocketImpl(url);
    socket = ws;
    ws.addEventListener('open', () => {
      void present(ws, authorize?.(), channels);
      clearInterval(heartbeat);
      heartbeat = setInterval(() => send(ws, { type: 'ping' }), heartbeatMs);
    });
    ws.addEventListener('message', (message) => {
      const frame = parseFrame(message.data);
      if (!frame) return;
      const channel = frame.channel ?? '';
      if (frame.type === 'event' && frame.event) onEvent(channel, frame.event);
      else if (frame.type === 'authorized') reset('auth');
      else if (frame.type === 'subscribed') {
        reset(channel);
        reset('');
        onStatus(channel, 'subscribed');
      } else if (frame.type === 'error' && frame.code === 'ACCESS_DENIED') {
        // Spec section 8: re-authorise with a new key, then join what the old key held.
        const lost = frame.channels?.length ? frame.channels : channels;
        retry('auth', () => void present(ws, reauthorize?.(lost), lost), failAll(lost));
      } else if (frame.type === 'error' && channel) {
        retry(
          channel,
          () => send(ws, { type: 'subscribe', channel }),
          () => onStatus(channel, 'failed'),
        );
      }
    });
    ws.addEventListener('close', () => {
      clearInterval(heartbeat);
      if (ws !== socket || stopped) return;
      retry('', connect, failAll(channels));
    });
  }

  connect();
  return {
    close() {
      stopped = true;
      clearInterval(heartbeat);
      socket?.close();
    },
  };
}
