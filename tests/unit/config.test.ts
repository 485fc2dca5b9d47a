import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../server/config.ts';

describe('readConfig', () => {
  it('uses the embedded defaults', () => {
    expect(readConfig({})).toMatchObject({
      PORT: 4321,
      HOST: '127.0.0.1',
      DATABASE_URL: 'data/marketplace.db',
      PRICE_FEED: 'simulated',
      PRICE_TICK_SECONDS: 10,
    });
  });

  it('reads PORT, HOST and DATABASE_URL', () => {
    expect(readConfig({ PORT: '8080', HOST: '0.0.0.0', DATABASE_URL: '/var/lib/x.db' })).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      DATABASE_URL: '/var/lib/x.db',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT="eighty"'],
    [{ PORT: '70000' }, 'PORT="70000"'],
    [{ HOST: '' }, 'HOST=""'],
    [{ PUBLIC_ORIGIN: 'not a url' }, 'PUBLIC_ORIGIN="not a url"'],
    [{ PRICE_FEED: 'binance' }, 'PRICE_FEED="binance"'],
  ])('stops with a message naming the variable for %j', (env, named) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(named);
  });
});
