import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

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
 * A real SMTP server (smtp-server) in a process of its own, which takes every mail it is sent and hands it back
 * parsed (mailparser), one JSON line each: the service sends through its own SMTP client, as to any server.
 */
export async function startMailbox(): Promise<Mailbox> {
  const child = spawn(process.execPath, [join(__dirname, 'smtp-sink.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting: (() => void)[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the SMTP server exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as ReceivedMail | { port: number };
      if ('port' in message) {
        resolve(message.port);
        return;
      }
      received.push(message);
      for (const wake of waiting.splice(0)) wake();
    });
  });

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
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
