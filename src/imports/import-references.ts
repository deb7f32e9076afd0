import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { wholeAccount } from '../auth/owner';
import { ValidationFailedException, type FieldErrors } from '../common/exceptions';
import type { Page } from '../common/pagination';
import { validateItems } from '../common/validation.pipe';
import { DomainsService } from '../domains/domains.service';
import { CreateDomainDto } from '../domains/dto/domain.dto';
import { CreatePixelDto } from '../pixels/dto/pixel.dto';
import { PixelListQueryDto } from '../pixels/dto/pixel-list-query.dto';
import { PixelsService } from '../pixels/pixels.service';
import { CreateSpaceDto } from '../spaces/dto/space.dto';
import { SpaceListQueryDto } from '../spaces/dto/space-list-query.dto';
import { SpacesService } from '../spaces/spaces.service';
import type { SourceDomain, SourcePixel, SourceSpace } from './sources/source';

/** A reference that could not be found or made: the links that name it fail with this reason. */
export class ReferenceRefused extends Error {}

/** Names match as the unique indexes match them: regardless of case. */
function key(name: string): string {
  return name.toLowerCase();
}

/** Every item of a list, 100 a page. */
async function everyItem<T>(read: (page: number) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const { items: found, total } = await read(page);
    items.push(...found);
    if (found.length === 0 || items.length >= total) return items;
  }
}

/** The first reason of a refusal, for an import's error. */
function reasonOf(errors: FieldErrors): string {
  const [field, reasons] = Object.entries(errors)[0] ?? ['', ['is invalid']];
  return `${field}: ${reasons[0]}`;
}

/**
 * The spaces, pixels and domains of one import's workspace by name: each found once, or made through its own
 * service (checked as the API checks it), and remembered for the rest of the import. A dry run finds but never
 * makes: what it would make gets id 0.
 */
export class WorkspaceReferences {
  private spaces: Map<string, number> | null = null;
  private pixels: Map<string, number> | null = null;
  private readonly domains = new Map<string, number>();

  constructor(
    private readonly accountId: number,
    private readonly dryRun: boolean,
    private readonly services: ReferenceServices,
  ) {}

  async space(space: SourceSpace): Promise<number> {
    this.spaces ??= await this.services.spaceIds(this.accountId);
    const known = this.spaces.get(key(space.name));
    if (known !== undefined) return known;
    const id = this.dryRun ? 0 : await this.services.createSpace(this.accountId, space);
    this.spaces.set(key(space.name), id);
    return id;
  }

  async pixel(pixel: SourcePixel): Promise<number> {
    this.pixels ??= await this.services.pixelIds(this.accountId);
    const known = this.pixels.get(key(pixel.name));
    if (known !== undefined) return known;
    const id = this.dryRun ? 0 : await this.services.createPixel(this.accountId, pixel);
    this.pixels.set(key(pixel.name), id);
    return id;
  }

  /** The workspace's domain of that name, made when no one holds it; another workspace's is refused. */
  async domain(domain: SourceDomain): Promise<number> {
    const known = this.domains.get(key(domain.name));
    if (known !== undefined) return known;
    const id = await this.services.domainId(this.accountId, domain, this.dryRun);
    this.domains.set(key(domain.name), id);
    return id;
  }
}

/** What the references of an import are found and made with: the features' own services. */
@Injectable()
export class ReferenceServices {
  constructor(
    private readonly spacesService: SpacesService,
    private readonly pixelsService: PixelsService,
    private readonly domainsService: DomainsService,
  ) {}

  async spaceIds(accountId: number): Promise<Map<string, number>> {
    const spaces = await everyItem((page) =>
      this.spacesService.list(
        wholeAccount(accountId),
        plainToInstance(SpaceListQueryDto, { per_page: '100', page: String(page) }),
      ),
    );
    return new Map(spaces.map((space) => [key(space.name), space.id]));
  }

  async pixelIds(accountId: number): Promise<Map<string, number>> {
    const pixels = await everyItem((page) =>
      this.pixelsService.list(
        accountId,
        plainToInstance(PixelListQueryDto, { per_page: '100', page: String(page) }),
      ),
    );
    return new Map(pixels.map((pixel) => [key(pixel.name), pixel.id]));
  }

  async createSpace(accountId: number, space: SourceSpace): Promise<number> {
    const dto = await checked(
      CreateSpaceDto,
      { name: space.name, color: space.color ?? 1 },
      `space ${space.name}`,
    );
    return refusedAs(
      `space ${space.name}`,
      async () => (await this.spacesService.create(wholeAccount(accountId), dto)).id,
    );
  }

  async createPixel(accountId: number, pixel: SourcePixel): Promise<number> {
    const dto = await checked(CreatePixelDto, pixel, `pixel ${pixel.name}`);
    return refusedAs(`pixel ${pixel.name}`, async () => (await this.pixelsService.create(accountId, dto)).id);
  }

  async domainId(accountId: number, domain: SourceDomain, dryRun: boolean): Promise<number> {
    const found = await this.domainsService.findByName(domain.name);
    if (found !== null) {
      if (found.accountId !== null && found.accountId !== accountId) {
        throw new ReferenceRefused(`the domain ${domain.name} belongs to another workspace`);
      }
      return found.id;
    }
    const dto = await checked(
      CreateDomainDto,
      {
        name: domain.name,
        index_page: domain.indexPage ?? null,
        not_found_page: domain.notFoundPage ?? null,
      },
      `domain ${domain.name}`,
    );
    if (dryRun) return 0;
    return refusedAs(
      `domain ${domain.name}`,
      async () => (await this.domainsService.create(accountId, dto)).id,
    );
  }
}

/** What `make` made; a refusal of the API's (a quota, a name taken meanwhile) as a ReferenceRefused. */
async function refusedAs(what: string, make: () => Promise<number>): Promise<number> {
  try {
    return await make();
  } catch (error) {
    if (error instanceof ValidationFailedException)
      throw new ReferenceRefused(`${what}: ${reasonOf(error.fields)}`);
    throw error;
  }
}

/** The item as its create DTO, or a ReferenceRefused that names what and why. */
async function checked<T extends object>(metatype: new () => T, item: object, what: string): Promise<T> {
  const [{ value, errors }] = await validateItems(metatype, [item]);
  if (Object.keys(errors).length > 0) throw new ReferenceRefused(`${what}: ${reasonOf(errors)}`);
  return value;
}
