import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withSettingsTable } from './config/settings-table';

/** `npm run docs:settings`: writes the settings table of docs/OPERATIONS.md from the settings' schema. */
if (require.main === module) {
  const file = join(__dirname, '..', 'docs', 'OPERATIONS.md');
  writeFileSync(file, withSettingsTable(readFileSync(file, 'utf8')));
  process.stdout.write('docs/OPERATIONS.md: settings table written\n');
}
