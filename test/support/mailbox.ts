import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the test's SMTP server received it. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
}

export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`, for `SMTP_URL`. */
  url: string;
  received: ReceivedMail[];
  /** The next mail to `to` (already received, or when it comes); fails after `timeoutMs`. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test's process (smtp-server), which takes every mail it is sent, parses it
 * (mailparser) and keeps it: the service sends through its own SMTP client, as it would to any server.
 */
export async function startMailbox(): Promise<Mailbox> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const to = ([] as { value: { address?: string }[] }[])
            .concat(parsed.to ?? [])
            .flatMap((group) => group.value.map((address) => address.address ?? ''));
          received.push({
            to,
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          });
          for (const wake of waiting.splice(0)) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  async function next(to: string, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = received.find((one) => !taken.has(one) && one.to.includes(to));
      if (mail !== undefined) {
        taken.add(mail);
        return mail;
      }
      if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, 100).unref();
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
