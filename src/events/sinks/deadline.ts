/** A broker that took longer than a sink's timeout to answer. */
export class BrokerTimeoutError extends Error {
  constructor(broker: string, timeoutMs: number) {
    super(`${broker} did not answer within ${timeoutMs} ms`);
    this.name = 'BrokerTimeoutError';
  }
}

/**
 * What `work` settles with, or a {@link BrokerTimeoutError} once `timeoutMs` have passed, whichever comes first.
 * `work` goes on unobserved after the timeout: its owner must tear down what it was using.
 */
export async function withDeadline<T>(work: Promise<T>, timeoutMs: number, broker: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new BrokerTimeoutError(broker, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
