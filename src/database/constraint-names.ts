import { DefaultNamingStrategy, Table, type NamingStrategyInterface } from 'typeorm';

function tableName(tableOrName: Table | string): string {
  const name = tableOrName instanceof Table ? tableOrName.name : tableOrName;
  return name.split('.').pop()!;
}

/**
 * Readable constraint names where an entity gives none, so that an error names what was violated and a migration
 * reads like the schema: `PK_<table>`, and `FK_<table>_<column without _id>` for a foreign key of one column.
 * Names an entity gives itself win.
 */
export class ConstraintNames extends DefaultNamingStrategy implements NamingStrategyInterface {
  override primaryKeyName(tableOrName: Table | string): string {
    return `PK_${tableName(tableOrName)}`;
  }

  override foreignKeyName(tableOrName: Table | string, columnNames: string[]): string {
    if (columnNames.length !== 1) return super.foreignKeyName(tableOrName, columnNames);
    return `FK_${tableName(tableOrName)}_${columnNames[0].replace(/_id$/, '')}`;
  }
}
