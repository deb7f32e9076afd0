/** The host and port of a Redis URL, for log lines: never its user, password or database. */
export function redisAddress(url: string): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port === '' ? '6379' : port}`;
}

/** What an error says, with the URL and its password taken out, should a message ever quote them. */
export function withoutSecrets(error: unknown, url: string): string {
  let text = error instanceof Error ? error.message : String(error);
  const { password } = new URL(url);
  for (const secret of [url, password, decodeURIComponent(password)]) {
    if (secret !== '') text = text.split(secret).join('***');
  }
  return text;
}

// The limits' client, made where every Redis client of the service is made.
export { connectRedis } from '../common/redis-server';
