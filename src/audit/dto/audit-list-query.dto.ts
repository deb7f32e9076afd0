import { ListQueryDto } from '../../common/list-query.dto';
import { FormDay, FormEnum, FormId, FormString, Nullable } from '../../common/validation';

export const ACTOR_TYPES = ['user', 'key', 'cli', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export const TARGET_TYPES = [
  'account',
  'link',
  'space',
  'domain',
  'pixel',
  'key',
  'webhook',
  'tag',
  'utm_template',
  'member',
  'invitation',
  'session',
] as const;

/** The audit log's list and export: newest first, narrowed by what, who, on what and when. */
export class AuditListQueryDto extends ListQueryDto {
  @Nullable()
  @FormString({ max: 64, description: 'One action, such as `link.updated` or `member.removed`.' })
  action?: string | null;

  @Nullable()
  @FormEnum(ACTOR_TYPES, 'AuditActorType')
  actor_type?: ActorType | null;

  @Nullable()
  @FormEnum(TARGET_TYPES, 'AuditTargetType')
  target_type?: (typeof TARGET_TYPES)[number] | null;

  @Nullable()
  @FormId({ description: 'The id of what was changed.' })
  target_id?: number | null;

  @Nullable()
  @FormDay('First day, `Y-m-d` (UTC).')
  from?: Date | null;

  @Nullable()
  @FormDay('Last day, `Y-m-d` (UTC), whole.')
  to?: Date | null;
}
