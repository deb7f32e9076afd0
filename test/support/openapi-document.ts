import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
import { DOCUMENT_SERVER_URL, openApiDocument } from '../../src/openapi-document';

/** The committed document, `docs/openapi.json`. */
export const DOCUMENT_FILE = join(__dirname, '..', '..', 'docs', 'openapi.json');

export function committedDocument(): OpenAPIObject {
  return JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as OpenAPIObject;
}

/** The document as the code generates it now, as `npm run openapi` does: in preview mode, without a database. */
export async function generatedDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create(AppModule, { preview: true, logger: false, abortOnError: false });
  try {
    return openApiDocument(app, DOCUMENT_SERVER_URL);
  } finally {
    await app.close();
  }
}
