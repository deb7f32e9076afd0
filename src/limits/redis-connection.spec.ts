import { connectRedis, redisAddress, withoutSecrets } from './redis-connection';

describe('redisAddress', () => {
  it.each([
    ['redis://127.0.0.1:6379', '127.0.0.1:6379'],
    ['redis://cache', 'cache:6379'],
    ['rediss://limits:s3cret@redis.internal:6380/2', 'redis.internal:6380'],
    ['redis://:p%40ss@[::1]:7000', '[::1]:7000'],
  ])('names %s as %s, without user, password or database', (url, address) => {
    expect(redisAddress(url)).toBe(address);
  });
});

describe('withoutSecrets', () => {
  const url = 'redis://limits:p%40ss%2Fw0rd@redis.internal:6379/0';

  it('takes the URL and its password, as written and decoded, out of a message', () => {
    const error = new Error(`could not reach ${url}: p%40ss%2Fw0rd or p@ss/w0rd refused`);
    expect(withoutSecrets(error, url)).toBe('could not reach ***: *** or *** refused');
  });

  it('leaves a message without them as it is', () => {
    expect(withoutSecrets(new Error('connect ECONNREFUSED 10.0.0.5:6379'), url)).toBe(
      'connect ECONNREFUSED 10.0.0.5:6379',
    );
    expect(withoutSecrets('Command timed out', 'redis://cache')).toBe('Command timed out');
  });
});

describe('connectRedis', () => {
  it('makes a client that refuses commands at once while it is not connected, and never resends one', async () => {
    const client = connectRedis({
      redisUrl: 'redis://127.0.0.1:1',
      redisKeyPrefix: 'shortlink-test:',
      redisTimeoutMs: 150,
    });
    client.on('error', () => undefined);
    try {
      expect(client.options).toMatchObject({
        keyPrefix: 'shortlink-test:',
        enableOfflineQueue: false,
        commandTimeout: 150,
        autoResendUnfulfilledCommands: false,
        enableAutoPipelining: true,
      });
      // Refused by the offline-queue rule, not by the command's timeout, whose error would say it timed out.
      await expect(client.ping()).rejects.toThrow(/enableOfflineQueue/);
    } finally {
      client.disconnect();
    }
  });
});
