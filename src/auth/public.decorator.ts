import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';

export const IS_PUBLIC = 'isPublic';

/**
 * The only way out of the global bearer guard: a route that says so. The OpenAPI document says so too: an empty
 * security requirement, which the document builder writes as `security: []`.
 */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiSecurity({}));
