import { useEffect, useRef } from 'react';

// The realtime hub on /ws (server/realtime/hub.ts): subscribe to one channel and hear its events.
// A dropped socket or a channel error is retried up to 3 times, waiting attempt × 1 s (spec
// section 8, "Realtime"); a successful subscription resets the count. `subscribeChannel` is the
// framework-free part (the stores in src/stores/ use it); `useChannel` is its React hook.

export interface RealtimeEvent {
  type: string;
  payload?: unknown;
}

const MAX_RETRIES = 3;

export interface ChannelStatusHandlers {
  /** The channel is (again) subscribed. */
  onSubscribed?(): void;
  /** The retries are spent: the channel is given up (the wallet's "subscribe error", spec section 4). */
  onFailed?(): void;
}

/** Opens a socket for one channel; the returned function closes it. Browser only. */
export function subscribeChannel(
  channel: string,
  onEvent: (event: RealtimeEvent) => void,
  status: ChannelStatusHandlers = {},
): () => void {
  let socket: WebSocket | undefined;
  let retries = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const retry = () => {
    if (stopped) return;
    if (retries >= MAX_RETRIES) {
      status.onFailed?.();
      return;
    }
    retries += 1;
    timer = setTimeout(connect, retries * 1000);
  };

  function connect() {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener('open', () => ws.send(JSON.stringify({ type: 'subscribe', channel })));
    ws.addEventListener('message', (message) => {
      let frame: { type?: string; channel?: string; event?: RealtimeEvent };
      try {
        frame = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (frame.type === 'subscribed' && frame.channel === channel) {
        retries = 0;
        status.onSubscribed?.();
      } else if (frame.type === 'event' && frame.channel === channel && frame.event) onEvent(frame.event);
      else if (frame.type === 'error') ws.close();
    });
    ws.addEventListener('close', () => {
      if (socket === ws) retry();
    });
  }

  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close();
  };
}

export function useChannel(
  channel: string,
  onEvent: (event: RealtimeEvent) => void,
  status: ChannelStatusHandlers = {},
): void {
  // The latest handlers without reconnecting when they change.
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const statusHandlers = useRef(status);
  statusHandlers.current = status;

  useEffect(
    () =>
      subscribeChannel(channel, (event) => handler.current(event), {
        onSubscribed: () => statusHandlers.current.onSubscribed?.(),
        onFailed: () => statusHandlers.current.onFailed?.(),
      }),
    [channel],
  );
}
