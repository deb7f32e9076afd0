// An SMTP server for the tests (smtp-server), run as a process of its own: it takes every mail it is sent, parses
// it (mailparser) and writes it as one JSON line on stdout; its first line is {"port": N} once it listens.
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    simpleParser(stream).then(
      (parsed) => {
        const to = [parsed.to ?? []]
          .flat()
          .flatMap((group) => group.value.map((address) => address.address ?? ''));
        process.stdout.write(
          `${JSON.stringify({ to, from: parsed.from?.text ?? '', subject: parsed.subject ?? '', text: parsed.text ?? '' })}\n`,
        );
        callback();
      },
      /** @param {Error} error */
      (error) => callback(error),
    );
  },
});
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.server.address());
  process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => server.close(() => process.exit(0)));
