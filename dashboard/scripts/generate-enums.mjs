// Writes src/api/enums.ts: each enum of the OpenAPI document's schemas as a runtime list, typed by the generated
// schema, so that pickers offer exactly the values the API takes and a change to either fails the type check.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const document = JSON.parse(readFileSync(join(root, '..', 'docs', 'openapi.json'), 'utf8'));
const lines = [
  '// Written by `npm run generate` from ../docs/openapi.json: do not edit.',
  "import type { components } from './schema';",
  '',
  "type Schemas = components['schemas'];",
];
for (const [name, schema] of Object.entries(document.components.schemas).sort(([a], [b]) =>
  a.localeCompare(b),
)) {
  if (!Array.isArray(schema.enum)) continue;
  const values = schema.enum.map((/** @type {unknown} */ value) => JSON.stringify(value)).join(', ');
  lines.push(
    '',
    `export const ${name}Values = [${values}] as const satisfies readonly Schemas['${name}'][];`,
  );
}
writeFileSync(join(root, 'src', 'api', 'enums.ts'), `${lines.join('\n')}\n`);
