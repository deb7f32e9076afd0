import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CsvExportModule } from '../common/csv-stream';
import { AuditEntry } from './audit-entry.entity';
import { AuditController } from './audit.controller';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/** The audit log: recorded by the database in each change's transaction (see AuditRepository), read here. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntry]), CsvExportModule],
  controllers: [AuditController],
  providers: [AuditRepository, AuditService],
  exports: [AuditRepository, AuditService],
})
export class AuditModule {}
