import { Inject, Injectable } from '@nestjs/common';
import { AccountsService } from '../auth/accounts.service';
import type { ApiKey } from '../auth/api-key.entity';
import type { ApiCaller } from '../auth/owner';
import { scopesBeyond, type Scope } from '../auth/scopes';
import {
  UnauthorizedActionException,
  ValidationFailedException,
  type FieldErrors,
} from '../common/exceptions';
import { Resources } from '../common/resources';
import { quotasConfig, type QuotasConfig } from '../config/app-config';
import { Transactions } from '../database/transactions';
import { SpacesService } from '../spaces/spaces.service';
import type { CreateKeyDto, KeyListQueryDto, UpdateKeyDto } from './dto/key.dto';
import { toKeyResponse, type CreatedKeyResponse, type KeyResponse } from './key.mapper';
import { KeysRepository } from './keys.repository';

/** What a key is, or would be after a change: what the no-escalation rule compares with its maker's. */
interface KeyPowers {
  scopes: readonly Scope[];
  spaceIds: readonly number[] | null;
  expiresAt: Date | null;
}

/**
 * An account's API keys, managed by its keys. No escalation: a key only makes or changes keys that can do no
 * more than itself (scopes, spaces, and lifetime), and sees, changes or revokes only those, and itself.
 */
@Injectable()
export class KeysService extends Resources<ApiKey, KeyResponse, KeyListQueryDto, ApiCaller> {
  constructor(
    private readonly keys: KeysRepository,
    private readonly accounts: AccountsService,
    private readonly transactions: Transactions,
    private readonly spaces: SpacesService,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
  ) {
    super(keys, toKeyResponse);
  }

  async create(caller: ApiCaller, dto: CreateKeyDto): Promise<CreatedKeyResponse> {
    const wanted: KeyPowers = {
      scopes: dto.scopes,
      spaceIds: emptyToNull(dto.space_ids),
      // A key that expires makes keys that expire with it, unless told sooner.
      expiresAt: dto.expires_at ?? caller.expiresAt,
    };
    await this.check(caller, wanted, { spaceIds: dto.space_ids, expiresAt: dto.expires_at });
    const issued = await this.transactions.run(async (tx) => {
      const made = await this.accounts.createKey(caller.account, { name: dto.name, ...wanted }, tx);
      await this.keys.checkQuota(tx, this.quotas.maxKeysPerAccount, caller.account.id);
      return made;
    });
    return { ...toKeyResponse(issued.key), key: issued.apiKey };
  }

  async update(caller: ApiCaller, id: number, dto: UpdateKeyDto): Promise<KeyResponse> {
    const key = await this.findWithinPower(caller, id);
    const wanted: KeyPowers = {
      scopes: dto.scopes ?? key.scopes,
      spaceIds: dto.space_ids === undefined ? key.spaceIds : emptyToNull(dto.space_ids),
      expiresAt: dto.expires_at === undefined ? key.expiresAt : dto.expires_at,
    };
    await this.check(caller, wanted, { spaceIds: dto.space_ids, expiresAt: dto.expires_at });
    const changes: Partial<ApiKey> = {
      ...wanted,
      scopes: [...wanted.scopes],
      spaceIds: wanted.spaceIds && [...wanted.spaceIds],
    };
    if (dto.name !== undefined) changes.name = dto.name;
    await this.keys.update(caller.account.id, id, changes);
    return this.show(caller, id);
  }

  /** Revokes the key: refused by every instance from its next request on. A key may always revoke itself. */
  async remove(caller: ApiCaller, id: number): Promise<void> {
    await this.findWithinPower(caller, id);
    await this.keys.revoke(caller.account.id, id);
  }

  /**
   * A key the caller may change or revoke: itself, or one that can do no more than it (scopes, spaces, expiry) as
   * it stands before the change; a stronger key is a 403, so that a weaker key cannot narrow or disarm it.
   */
  private async findWithinPower(caller: ApiCaller, id: number): Promise<ApiKey> {
    const key = await this.find(caller, id);
    if (key.id !== caller.keyId && this.beyond(caller, key).length > 0)
      throw new UnauthorizedActionException();
    return key;
  }

  /** What `key` could do that the caller cannot: the fields that name it, for a refusal. */
  private beyond(caller: ApiCaller, key: KeyPowers): (keyof KeyPowers)[] {
    const fields: (keyof KeyPowers)[] = [];
    if (scopesBeyond(caller.granted, key.scopes).length > 0) fields.push('scopes');
    const within = caller.owner.spaceIds;
    if (within !== null && (key.spaceIds === null || key.spaceIds.some((id) => !within.includes(id)))) {
      fields.push('spaceIds');
    }
    if (caller.expiresAt !== null && (key.expiresAt === null || key.expiresAt > caller.expiresAt)) {
      fields.push('expiresAt');
    }
    return fields;
  }

  /**
   * A 422 naming each field that would give the key more than its maker has, or that names what is not there:
   * spaces the maker cannot see, a date already past.
   */
  private async check(
    caller: ApiCaller,
    wanted: KeyPowers,
    sent: { spaceIds: number[] | null | undefined; expiresAt: Date | null | undefined },
  ): Promise<void> {
    const errors: FieldErrors = {};
    const beyond = scopesBeyond(caller.granted, wanted.scopes);
    if (beyond.length > 0) {
      errors.scopes = [`The scopes may not go beyond the key's own; it lacks ${beyond.join(', ')}.`];
    }
    if (this.beyond(caller, wanted).includes('spaceIds')) {
      // Whether a space outside the restriction exists is not the restricted key's to learn: one answer for both.
      errors.space_ids = ["The space ids must lie within the key's own restriction."];
    } else if (sent.spaceIds !== undefined && sent.spaceIds !== null) {
      const known = await this.spaces.ownedIds(caller.owner, sent.spaceIds);
      sent.spaceIds.forEach((id, index) => {
        if (!known.has(id)) errors[`space_ids.${index}`] = ['The selected space is invalid.'];
      });
    }
    if (sent.expiresAt !== undefined && sent.expiresAt !== null && sent.expiresAt.getTime() <= Date.now()) {
      errors.expires_at = ['The expires at must be a date after now.'];
    } else if (this.beyond(caller, wanted).includes('expiresAt')) {
      errors.expires_at = ['The expires at must not be later than the expiry of the key making the change.'];
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailedException(errors);
  }
}

/** An empty restriction is none: every space. */
function emptyToNull(spaceIds: number[] | null | undefined): number[] | null {
  return spaceIds === undefined || spaceIds === null || spaceIds.length === 0
    ? null
    : [...new Set(spaceIds)].sort((a, b) => a - b);
}
