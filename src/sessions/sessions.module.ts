import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { ApiSession } from './api-session.entity';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

/** The dashboard's sessions: a key exchanged for a cookie (the lookup of every request is AuthModule's). */
@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([ApiSession])],
  controllers: [SessionsController],
  providers: [SessionsService, SessionsRepository],
})
export class SessionsModule {}
