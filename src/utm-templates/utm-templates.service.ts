import { Inject, Injectable } from '@nestjs/common';
import type { Owner } from '../auth/owner';
import {
  ResourceNotFoundException,
  UnauthorizedActionException,
  ValidationFailedException,
} from '../common/exceptions';
import { Resources } from '../common/resources';
import { quotasConfig, type QuotasConfig } from '../config/app-config';
import { LINK_VISIT_FIELDS, UTM_FIELDS as LINK_UTM_FIELDS } from '../links/link-visit-fields';
import type { UtmTemplateListQueryDto } from './dto/utm-template-list-query.dto';
import type { CreateUtmTemplateDto, UpdateUtmTemplateDto } from './dto/utm-template.dto';
import type { UtmTemplate } from './utm-template.entity';
import { toUtmTemplateResponse, type UtmTemplateResponse } from './utm-template.mapper';
import { UtmTemplatesRepository } from './utm-templates.repository';

/** Each UTM field of a body, with the property that keeps it: named as a link's are. */
const UTM_FIELDS = LINK_UTM_FIELDS.map((field) => [field, LINK_VISIT_FIELDS[field]] as const);

/** Laravel's `required_without_all` message: a template must set one UTM field at least. */
export const UTM_FIELD_REQUIRED =
  'The utm source field is required when none of utm medium / utm campaign / utm term / utm content are present.';

type UtmFields = Pick<UtmTemplate, (typeof UTM_FIELDS)[number][1]>;

/** A key restricted to spaces reads the templates too: they are the workspace's, in no space. */
@Injectable()
export class UtmTemplatesService extends Resources<
  UtmTemplate,
  UtmTemplateResponse,
  UtmTemplateListQueryDto,
  Owner
> {
  constructor(
    private readonly templates: UtmTemplatesRepository,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
  ) {
    super(templates, toUtmTemplateResponse);
  }

  async create(owner: Owner, dto: CreateUtmTemplateDto): Promise<UtmTemplateResponse> {
    assertMayChange(owner);
    const fields = Object.fromEntries(
      UTM_FIELDS.map(([field, property]) => [property, dto[field] ?? null]),
    ) as UtmFields;
    assertSetsOne(fields);
    const template = await this.templates.createWithinQuota(
      { accountId: owner.accountId, name: dto.name, ...fields },
      this.quotas.maxUtmTemplatesPerAccount,
    );
    return toUtmTemplateResponse(template);
  }

  /** What is absent stays; an empty (null) field is cleared, as long as one is left. */
  async update(owner: Owner, id: number, dto: UpdateUtmTemplateDto): Promise<UtmTemplateResponse> {
    assertMayChange(owner);
    const template = await this.find(owner, id);
    if (dto.name !== undefined) template.name = dto.name;
    for (const [field, property] of UTM_FIELDS) {
      const value = dto[field];
      if (value !== undefined) template[property] = value;
    }
    assertSetsOne(template);
    await this.templates.save(template);
    return toUtmTemplateResponse(template);
  }

  async remove(owner: Owner, id: number): Promise<void> {
    assertMayChange(owner);
    if (!(await this.templates.delete(owner.accountId, id))) throw new ResourceNotFoundException();
  }
}

/** A key restricted to spaces reads the workspace's templates but changes none: they are shared beyond its spaces. */
function assertMayChange(owner: Owner): void {
  if (owner.spaceIds !== null) throw new UnauthorizedActionException();
}

function assertSetsOne(fields: UtmFields): void {
  if (UTM_FIELDS.every(([, property]) => fields[property] === null)) {
    throw ValidationFailedException.of('utm_source', UTM_FIELD_REQUIRED);
  }
}
