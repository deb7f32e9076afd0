import { NestFactory } from '@nestjs/core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from './app.module';
import { DOCUMENT_SERVER_URL, openApiDocument } from './openapi-document';

/** The committed document, in the form this writes it. */
export function serialiseDocument(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * `npm run openapi`: writes docs/openapi.json from the code. The application is built in preview mode, which
 * reads the modules' metadata without creating a provider, so no database is opened.
 */
async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, { preview: true, logger: false, abortOnError: false });
  const file = join(__dirname, '..', 'docs', 'openapi.json');
  writeFileSync(file, serialiseDocument(openApiDocument(app, DOCUMENT_SERVER_URL)));
  await app.close();
  process.stdout.write('docs/openapi.json written\n');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
