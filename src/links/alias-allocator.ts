import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomInt } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { isUniqueViolation, takenMessage } from '../common/database-errors';
import { ValidationFailedException } from '../common/exceptions';
import { LINK_ALIAS_UNIQUE, type Link } from './link.entity';
import { isReservedAlias } from './reserved-aliases';

const RANDOM_ALIAS_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const RANDOM_ALIAS_LENGTH = 5;
const RANDOM_ALIAS_ATTEMPTS = 8;

function randomAlias(length: number): string {
  let alias = '';
  for (let index = 0; index < length; index += 1) alias += RANDOM_ALIAS_ALPHABET[randomInt(36)];
  return alias;
}

/**
 * Gives a new link its alias as it is inserted: the one asked for, or a random one that grows a character per
 * collision, never a reserved one. The unique index decides, so two requests cannot take the same alias.
 */
@Injectable()
export class AliasAllocator {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Sets `link.alias` and runs `insert` with it. Inside `manager`'s transaction each attempt is a savepoint, so a
   * collision undoes that attempt alone; a taken alias that was asked for is refused under `aliasField`.
   */
  async insert(
    link: Link,
    alias: string | null,
    insert: (manager: EntityManager) => Promise<void>,
    manager: EntityManager | null,
    aliasField = 'alias',
  ): Promise<void> {
    let length = RANDOM_ALIAS_LENGTH;
    for (let attempt = 0; attempt < RANDOM_ALIAS_ATTEMPTS; attempt += 1) {
      link.alias = alias ?? randomAlias(length);
      if (alias === null && isReservedAlias(link.alias)) continue;
      try {
        await (manager ?? this.dataSource.manager).transaction(insert);
        return;
      } catch (error) {
        if (!isUniqueViolation(error, LINK_ALIAS_UNIQUE)) throw error;
        // In a bulk request, the field is the item's (`links.7.alias`).
        if (alias !== null) throw ValidationFailedException.of(aliasField, takenMessage('alias'));
        // The failed insert may have assigned an id: start the next attempt clean.
        delete (link as Partial<Link>).id;
        length += 1;
      }
    }
    throw new Error(`No free random alias after ${RANDOM_ALIAS_ATTEMPTS} attempts`);
  }
}
