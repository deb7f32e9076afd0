import { redisClient, sentinelsOf } from './redis-server';

describe('redisClient', () => {
  it('connects to the host of the URL when no sentinels are given', () => {
    const client = redisClient('redis://:pw@cache.internal:6380/2', { lazyConnect: true });
    expect(client.options).toMatchObject({ host: 'cache.internal', port: 6380, password: 'pw', db: 2 });
    expect(client.options.sentinels).toBeFalsy();
    client.disconnect();
  });

  it('under Sentinel, asks the sentinels for the master of the group the URL names, with its credentials', () => {
    const client = redisClient(
      'rediss://limits:p%40ss@mymaster/3',
      { lazyConnect: true },
      sentinelsOf({
        redisSentinels: [
          { host: 'sentinel-1', port: 26379 },
          { host: 'fd00::2', port: 26380 },
        ],
        redisSentinelPassword: 'sentinel secret',
      }),
    );
    expect(client.options).toMatchObject({
      name: 'mymaster',
      sentinels: [
        { host: 'sentinel-1', port: 26379 },
        { host: 'fd00::2', port: 26380 },
      ],
      username: 'limits',
      password: 'p@ss',
      db: 3,
      tls: {},
      sentinelPassword: 'sentinel secret',
      failoverDetector: true,
    });
    client.disconnect();
  });

  it('reads no sentinels from settings that name none', () => {
    expect(sentinelsOf({ redisSentinels: undefined, redisSentinelPassword: 'unused' })).toBeUndefined();
  });
});
