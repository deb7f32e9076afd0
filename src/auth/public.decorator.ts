import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/** The only way out of the global bearer guard: a route that says so. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
