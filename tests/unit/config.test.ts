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

  it('takes PostgreSQL and Redis URLs for several processes (issue 17)', () => {
    expect(
      readConfig({ DATABASE_URL: 'postgres://coinfair:pw@db.internal:5432/coinfair', REDIS_URL: 'redis://cache:6379' }),
    ).toMatchObject({
      DATABASE_URL: 'postgres://coinfair:pw@db.internal:5432/coinfair',
      DATABASE_POOL_SIZE: 10,
      REDIS_URL: 'redis://cache:6379',
      REDIS_PREFIX: 'coinfair:',
    });
    expect(readConfig({}).REDIS_URL).toBeUndefined();
    expect(readConfig({ REDIS_PREFIX: 'shop-2:' }).REDIS_PREFIX).toBe('shop-2:');
  });

  it.each([
    [{ DATABASE_URL: 'mysql://db/coinfair' }, 'DATABASE_URL="mysql://db/coinfair": must be a SQLite file path'],
    [{ DATABASE_URL: 'postgres://u:secret@db:5432/' }, 'names no database'],
    [{ DATABASE_URL: 'postgres://u:secret@:5432/x' }, 'DATABASE_URL="postgres://u:***@:5432/x"'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL="http://cache:6379": must be a URL such as redis://'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE="0"'],
    [{ REDIS_PREFIX: 'two words' }, 'REDIS_PREFIX="two words": must be 1 to 64 letters'],
  ])('names the database or Redis setting that is wrong in %j, never printing a password', (env, named) => {
    expect(() => readConfig(env)).toThrow(named);
    expect(() => readConfig(env)).not.toThrow('secret');
  });
});

describe('GIFT_CODE_KEY', () => {
  it('takes 32 bytes of hex and refuses anything else without printing it whole', () => {
    const key = 'c0'.repeat(32);
    expect(readConfig({ GIFT_CODE_KEY: key }).GIFT_CODE_KEY).toBe(key);
    let message = '';
    try {
      readConfig({ GIFT_CODE_KEY: 'deadbeef-not-hex-but-secret' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('GIFT_CODE_KEY="dead…": must be 32 bytes as 64 hexadecimal characters');
    expect(message).not.toContain('secret');
  });

  it('refuses the public development key when DEMO_DATA=off', () => {
    expect(() => readConfig({ DEMO_DATA: 'off', WALLET_BTC_XPUB: 'x' })).toThrow(/GIFT_CODE_KEY=.*your own secret key/);
  });
});

describe('API_KEY_ROOT', () => {
  it('takes 32 bytes of hex, refuses anything else without printing it, and the public key with DEMO_DATA=off', () => {
    const key = 'a1'.repeat(32);
    expect(readConfig({ API_KEY_ROOT: key }).API_KEY_ROOT).toBe(key);
    expect(() => readConfig({ API_KEY_ROOT: 'beefbeef-not-hex-secret' })).toThrow(
      /API_KEY_ROOT="beef…": must be 32 bytes/,
    );
    expect(() => readConfig({ API_KEY_ROOT: 'beefbeef-not-hex-secret' })).not.toThrow(/secret/);
    expect(() => readConfig({ DEMO_DATA: 'off', GIFT_CODE_KEY: 'c0'.repeat(32) })).toThrow(
      /API_KEY_ROOT=.*your own secret key/,
    );
  });
});

describe('WEBHOOKS_ALLOW_LOCAL', () => {
  it('is off unless turned on', () => {
    expect(readConfig({}).WEBHOOKS_ALLOW_LOCAL).toBe('off');
    expect(readConfig({ WEBHOOKS_ALLOW_LOCAL: 'on' }).WEBHOOKS_ALLOW_LOCAL).toBe('on');
    expect(() => readConfig({ WEBHOOKS_ALLOW_LOCAL: 'yes' })).toThrow(/WEBHOOKS_ALLOW_LOCAL/);
  });
});
