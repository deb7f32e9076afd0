import { Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Without TRUST_PROXY every visitor behind a proxy has the proxy's address, so one visitor's wrong passwords
 * lock everyone out of a link. A forwarded header is the sign of such a proxy: say so once, to the operator.
 */
export function warnOfUntrustedProxy(): (
  request: IncomingMessage,
  response: ServerResponse,
  next: () => void,
) => void {
  const logger = new Logger('TrustProxy');
  let warned = false;
  return (request, _response, next) => {
    if (
      !warned &&
      (request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined)
    ) {
      warned = true;
      logger.warn(
        'A request came with X-Forwarded-For or Forwarded while TRUST_PROXY is unset: every visitor counts as the ' +
          'proxy. Set TRUST_PROXY to the hop count or the subnets of your proxies (never true on the open internet).',
      );
    }
    next();
  };
}
