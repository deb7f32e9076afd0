import { Body, Controller, Delete, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentCaller } from '../auth/current-account.decorator';
import type { ApiCaller } from '../auth/owner';
import { resourceRoutes, ScopedRoute } from '../auth/resource-route';
import { dataEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { ApiDataResponse } from '../common/openapi';
import { paginatedEnvelope } from '../common/pagination';
import { CreateImportDto, IMPORT_EXAMPLE, ImportListQueryDto } from './dto/import.dto';
import { ImportResponse } from './import.mapper';
import { ImportsService } from './imports.service';

/** Imports write links: they are read and started with the links' scopes. */
const routes = resourceRoutes({
  scopes: 'links',
  id: 'Import',
  one: 'an import',
  many: 'imports',
  response: ImportResponse,
  object: 'import',
});

@ApiTags('imports')
@Controller('api/v1/imports')
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @ScopedRoute('links.write', Post(), {
    operationId: 'storeImport',
    summary: 'Import links and their clicks from another shortener',
    description:
      'Answers 202 at once; the import runs in the background (one at a time in a workspace, the others queued), ' +
      'goes on after a restart from its last page, and creates nothing twice when run again. Credentials are used ' +
      'for the import alone: dropped when it ends, never answered.',
    body: true,
    errors: [403],
    example: IMPORT_EXAMPLE,
  })
  @HttpCode(202)
  @ApiDataResponse(ImportResponse, { status: 202, bodyStatus: 202, description: 'Queued.' })
  async store(@CurrentCaller() caller: ApiCaller, @Body() dto: CreateImportDto) {
    return { data: await this.imports.create(caller, dto), status: 202 };
  }

  @routes.list()
  async list(
    @CurrentCaller() caller: ApiCaller,
    @Query() query: ImportListQueryDto,
    @Req() request: Request,
  ) {
    return paginatedEnvelope(request, query.pageRequest(), await this.imports.list(caller, query));
  }

  @routes.show()
  async show(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.imports.show(caller, id));
  }

  @ScopedRoute('links.write', Delete(':id'), {
    operationId: 'cancelImport',
    summary: 'Cancel an import',
    description:
      'Nothing of a page that was not written by then is written. An import that has ended is answered as it is.',
    errors: [404],
  })
  @HttpCode(200)
  @ApiDataResponse(ImportResponse)
  async cancel(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.imports.cancel(caller, id));
  }
}
