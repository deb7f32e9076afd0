import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { takenMessage } from '../common/database-errors';
import { ValidationFailedException } from '../common/exceptions';
import type { Link } from './link.entity';
import { isReservedAlias } from './reserved-aliases';

const RANDOM_ALIAS_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const RANDOM_ALIAS_LENGTH = 5;
const RANDOM_ALIAS_ATTEMPTS = 8;

function randomAlias(length: number): string {
  let alias = '';
  for (let index = 0; index < length; index += 1) alias += RANDOM_ALIAS_ALPHABET[randomInt(36)];
  return alias;
}

/** A link to give an alias: the one it asked for, or null for a random one. */
export interface AliasRequest {
  link: Link;
  alias: string | null;
}

/**
 * Gives new links their aliases as they are inserted: the one asked for, or a random one that grows a character
 * per collision, never a reserved one. The unique index decides, so two requests cannot take the same alias.
 */
@Injectable()
export class AliasAllocator {
  /**
   * Sets each `link.alias` and inserts the links with `insert`, which inserts those whose alias is free and returns
   * the others. Links whose asked-for alias is taken are refused, each under `aliasField(index)`; links with a
   * random alias that collided try again, all together, one character longer.
   */
  async insert<T extends AliasRequest>(
    requests: T[],
    insert: (requests: T[]) => Promise<Set<T>>,
    aliasField: (index: number) => string,
  ): Promise<void> {
    let pending = requests.map((request, index) => ({ request, index }));
    let length = RANDOM_ALIAS_LENGTH;
    for (let attempt = 0; attempt < RANDOM_ALIAS_ATTEMPTS && pending.length > 0; attempt += 1) {
      for (const { request } of pending) request.link.alias = request.alias ?? freeRandomAlias(length);
      const taken = await insert(pending.map(({ request }) => request));
      pending = pending.filter(({ request }) => taken.has(request));
      // Every asked-for alias that is taken is named at once, so that a file is corrected in one pass.
      const asked = pending.filter(({ request }) => request.alias !== null);
      if (asked.length > 0) {
        throw new ValidationFailedException(
          Object.fromEntries(asked.map(({ index }) => [aliasField(index), [takenMessage('alias')]])),
        );
      }
      length += 1;
    }
    if (pending.length > 0) throw new Error(`No free random alias after ${RANDOM_ALIAS_ATTEMPTS} attempts`);
  }
}

function freeRandomAlias(length: number): string {
  for (;;) {
    const alias = randomAlias(length);
    if (!isReservedAlias(alias)) return alias;
  }
}
