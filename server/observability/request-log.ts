import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger as Pino, pino } from 'pino';
import { requestScope } from './log.ts';

// One log line and one latency observation per request (issue 25), with a request id the answer
// echoes in X-Request-Id. Behind a trusted proxy the proxy's id is kept, so a line in nginx's log
// and ours share it. The handler that answers says which route it was and for whom (noteRequest):
// the route's pattern, never the raw path, so the metrics' labels stay few.

/** What the answering handler knows about a request that the transport does not. */
export interface RequestFacts {
  /** The route's pattern (`/rest/v1/trade/:hash`), or the kind of answer (`static`, `page`). */
  route?: string;
  /** The person's public id (`usr_…`), when signed in. */
  user?: string;
}

// Kept on the request itself under a symbol: a WeakMap's set cost 0.6 µs a request in a CPU
// profile of a static file's answer (decision 148, the cost of observing).
const FACTS = Symbol('coinfair.requestFacts');
type NotedRequest = IncomingMessage & { [FACTS]?: RequestFacts };

/** Called by the handler that answers: merged into the request's log line. */
export function noteRequest(req: IncomingMessage, known: RequestFacts): void {
  const noted = req as NotedRequest;
  const already = noted[FACTS];
  noted[FACTS] = already ? { ...already, ...known } : known;
}

/** An id a proxy may hand us: short, and only characters that cannot forge a log line. */
const FORWARDED_ID = /^[\w.:@/+=-]{1,128}$/;

/**
 * Our own ids: this process's random prefix and a counter, unique across the deployment's processes
 * and a tenth of the cost of a random UUID per request (decision 148, the cost of observing).
 */
const processPrefix = randomBytes(6).toString('hex');
let requestCount = 0;

function requestIdOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-request-id'] : undefined;
  if (typeof forwarded === 'string' && FORWARDED_ID.test(forwarded)) return forwarded;
  requestCount += 1;
  return `${processPrefix}-${requestCount.toString(36)}`;
}

interface RequestLine {
  requestId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  user: string | undefined;
}

/**
 * Writes the request's line as pino would (`level`, `time`, the fields, `msg`) straight to the
 * log's stream. Its fields are fixed and none is secret, so it skips pino's generic serialiser and
 * the redaction walk: a sixth of their cost, on the one line every request writes (decision 148).
 * The id (ours, or a proxy's that FORWARDED_ID let through) and the method (Node refuses a request
 * whose method is not an HTTP token) hold no character JSON would escape, so they go in as they
 * are; a route is one of the code's few patterns, quoted by JSON once and remembered.
 */
function requestLineWriter(log: Pino): (line: RequestLine) => void {
  // Found by the symbol's name, not pino.symbols.streamSym: a logger made by another copy of pino
  // (a test's, beside the built bundle's) has its own symbol of the same name.
  const symbol = Object.getOwnPropertySymbols(log).find((s) => s.description === pino.symbols.streamSym.description);
  const stream = symbol ? (log as unknown as Record<symbol, { write(text: string): unknown }>)[symbol] : undefined;
  const quotedRoutes = new Map<string, string>();
  const quoteRoute = (route: string) => {
    let json = quotedRoutes.get(route);
    if (json === undefined) {
      json = JSON.stringify(route);
      quotedRoutes.set(route, json);
    }
    return json;
  };
  let second = 0;
  let iso = '';
  return ({ requestId, method, route, status, ms, user }) => {
    const now = Date.now();
    if (now !== second) {
      second = now;
      iso = new Date(now).toISOString();
    }
    const person = user ? `,"user":${JSON.stringify(user)}` : '';
    stream?.write(
      `{"level":30,"time":"${iso}","requestId":"${requestId}","method":"${method}",` +
        `"route":${quoteRoute(route)},"status":${status},"ms":${ms}${person},"msg":"request"}\n`,
    );
  };
}

export interface FinishedRequest {
  method: string;
  route: string;
  status: number;
  seconds: number;
}

export interface RequestObserver {
  log: Pino;
  trustProxy: boolean;
  /** Called once per answered request: the metrics' latency histogram (metrics.ts). */
  onFinished?(request: FinishedRequest): void;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** What the 'close' listener needs, kept on the answer (one listener function for every request). */
const OBSERVED = Symbol('coinfair.observed');
type ObservedResponse = ServerResponse & { [OBSERVED]: { req: NotedRequest; requestId: string; started: bigint } };

/** Wraps the server's request handler: an id, a scope carrying it, and the line when the answer is done. */
export function observeRequests({ log, trustProxy, onFinished }: RequestObserver, handler: Handler): Handler {
  const logsRequests = log.isLevelEnabled('info');
  const writeLine = requestLineWriter(log);
  // 'close' also comes when the client hangs up first: that request is logged with status 499. One
  // shared listener reading the request's facts from the answer, rather than a closure and
  // `once`'s wrapper per request (decision 148, the cost of observing); 'close' comes once anyway.
  function onClose(this: ObservedResponse): void {
    const { req, requestId, started } = this[OBSERVED];
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const known = req[FACTS];
    const status = this.writableFinished ? this.statusCode : 499;
    const method = req.method ?? 'GET';
    const route = known?.route ?? 'unmatched';
    onFinished?.({ method, route, status, seconds });
    if (logsRequests)
      writeLine({ requestId, method, route, status, ms: Math.round(seconds * 10_000) / 10, user: known?.user });
  }
  return (req, res) => {
    const requestId = requestIdOf(req, trustProxy);
    (res as ObservedResponse)[OBSERVED] = { req, requestId, started: process.hrtime.bigint() };
    res.setHeader('X-Request-Id', requestId);
    res.on('close', onClose);
    requestScope.run({ requestId }, handler, req, res);
  };
}
