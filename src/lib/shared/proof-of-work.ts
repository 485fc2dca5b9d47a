// Proof of work for the register and login forms. Shared by the browser (login island) and the
// server, so it uses only Web APIs: crypto.subtle and TextEncoder exist in both.
//
// A solution is a nonce such that SHA-256(`${challenge}:${nonce}`) starts with `difficulty` zero
// bits; the hex digest travels along as the seccode so the server can drop garbage with one hash.

const encoder = new TextEncoder();

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/**
 * One turn of the event loop. Not setTimeout(0): browsers clamp it to ~4 ms and Node to 1 ms, which
 * measured 4–50× slower solves; a message is a real task without the clamp.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close(); // an open port would keep Node's event loop alive
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Zero bits before the first one bit, reading bytes big-endian. */
export function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0;
  for (const byte of bytes) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24;
    bits += 8;
  }
  return bits;
}

export async function checkSolution(
  challenge: string,
  nonce: string,
  difficulty: number,
): Promise<{ ok: boolean; seccode: string }> {
  const digest = await sha256(`${challenge}:${nonce}`);
  return { ok: leadingZeroBits(digest) >= difficulty, seccode: hex(digest) };
}

/**
 * Tries nonces 0, 1, 2… and returns the first that meets the difficulty. Each batch of digests is
 * started at once: subtle.digest is asynchronous, and awaiting one call at a time costs about 3×
 * more per hash than letting the engine overlap them. Between batches the loop gives the event
 * loop a turn (input, rendering) and honours the abort signal; 256 keeps that turn overhead near
 * 5% while a batch stays a few milliseconds of main-thread work even on a phone.
 */
export async function solveChallenge(
  challenge: string,
  difficulty: number,
  { signal, batch = 256 }: { signal?: AbortSignal; batch?: number } = {},
): Promise<{ nonce: string; seccode: string }> {
  // The server never asks for more than 32 bits (already hours on a phone); a bad value must fail
  // at once instead of hanging the page.
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > 32) throw new RangeError('difficulty');
  const size = Math.max(1, Math.floor(batch));
  for (let start = 0; ; start += size) {
    signal?.throwIfAborted();
    const digests = await Promise.all(Array.from({ length: size }, (_, i) => sha256(`${challenge}:${start + i}`)));
    // The lowest nonce of the batch wins, so the answer is the same as a one-by-one search.
    const found = digests.findIndex((d) => leadingZeroBits(d) >= difficulty);
    const digest = digests[found];
    if (digest) return { nonce: String(start + found), seccode: hex(digest) };
    await nextTask();
  }
}
