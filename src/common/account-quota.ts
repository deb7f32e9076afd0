import { ValidationFailedException } from './exceptions';

/** What an account holds a limited number of; each has its own advisory lock, so one never waits on another. */
export enum QuotaKind {
  Links = 1,
  Spaces = 2,
  Domains = 3,
  Pixels = 4,
  Keys = 5,
  Webhooks = 6,
  Tags = 7,
  UtmTemplates = 8,
}

/** The first key of the quota locks (`pg_advisory_xact_lock(QUOTA_LOCK + kind, account)`). */
const QUOTA_LOCK = 0x51756f00;

export interface Quota {
  kind: QuotaKind;
  /** The most the account may hold; 0 for no limit. */
  limit: number;
  /** How the resource is named in the message: `links`. */
  noun: string;
  /** The field the refusal names. */
  field: string;
}

/** The second key of an account's lock of one kind of quota (the first is the account). */
export function quotaLock(kind: QuotaKind): number {
  return QUOTA_LOCK + kind;
}

/** The 422 of a change that would leave the account holding `total`, past its limit. */
export function quotaRefusal(quota: Quota, total: number): ValidationFailedException {
  return ValidationFailedException.of(
    quota.field,
    `The account may hold at most ${quota.limit} ${quota.noun}; this would make ${total}.`,
  );
}
