import { applyDecorators } from '@nestjs/common';
import { FormId, FormNameList, Nullable, Optional } from '../../common/validation';
import { MAX_LINK_TAGS, MAX_TAG_NAME } from '../../tags/tag.entity';

/**
 * The filters that pick a workspace's links by where they are filed, the same wherever links are picked: the links
 * list and its export, and the workspace's stats.
 */

/** `space_id`: a space's links; 0 for those in none. */
export function SpaceFilter(): PropertyDecorator {
  return applyDecorators(
    Nullable(),
    FormId({ orNone: true, description: "A space's links; 0 for links without a space." }),
  );
}

/** `domain_id`: a domain's links. */
export function DomainFilter(): PropertyDecorator {
  return applyDecorators(Nullable(), FormId({ description: "A domain's links." }));
}

/** `tag`, repeatable: the links holding any of these tags, by name regardless of case. */
export function TagFilter(): PropertyDecorator {
  return applyDecorators(
    Optional(),
    FormNameList({
      maxItems: MAX_LINK_TAGS,
      max: MAX_TAG_NAME,
      description: 'Links holding any of these tags, by name regardless of case (`tag=news&tag=tech`).',
    }),
  );
}
