import { Module } from '@nestjs/common';
import { ErrorPages } from '../../common/error-pages';
import { Pages } from './pages';
import { VisitorErrorPages } from './visitor-error-pages';

/** The pages visitors see, and the ones the global error filter shows browsers for the visitor routes' refusals. */
@Module({
  providers: [Pages, { provide: ErrorPages, useClass: VisitorErrorPages }],
  exports: [Pages, ErrorPages],
})
export class VisitorPagesModule {}
