import { describe, expect, it } from 'vitest';
import { listenProblem } from '../../server/main.ts';

// What `npm start` says when it cannot listen (the busy port end to end: tests/e2e/lifecycle.test.ts).

const config = { HOST: '127.0.0.1', PORT: 80 };
const failure = (code: string) => Object.assign(new Error(code), { code });

describe('listenProblem', () => {
  it('names the port and a way out for each failure an operator can fix', () => {
    expect(listenProblem(failure('EADDRINUSE'), config)).toBe(
      'Port 80 is already in use on 127.0.0.1: stop the program using it, or choose another port, e.g. PORT=81 npm start',
    );
    expect(listenProblem(failure('EACCES'), config)).toContain('ports below 1024 need privileges');
    expect(listenProblem(failure('EADDRNOTAVAIL'), { HOST: '10.9.9.9', PORT: 4321 })).toContain(
      'HOST=10.9.9.9 is not an address of this machine',
    );
  });

  it('leaves anything else to the caller (a bug keeps its stack trace)', () => {
    expect(listenProblem(new Error('boom'), config)).toBeUndefined();
    expect(listenProblem(undefined, config)).toBeUndefined();
  });
});
