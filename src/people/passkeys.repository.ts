import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Passkey } from './passkey.entity';

/** Users' passkeys. */
@Injectable()
export class PasskeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ofUser(userId: number): Promise<Passkey[]> {
    return this.dataSource.getRepository(Passkey).find({ where: { userId }, order: { id: 'ASC' } });
  }

  async insert(
    fields: Pick<Passkey, 'userId' | 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'name'>,
  ): Promise<Passkey> {
    return this.dataSource.getRepository(Passkey).save({ ...fields, lastUsedAt: null });
  }

  async findByCredential(credentialId: string): Promise<Passkey | null> {
    return this.dataSource.getRepository(Passkey).findOneBy({ credentialId });
  }

  /** A sign-in with the passkey: its new count, and when. */
  async used(id: number, counter: number): Promise<void> {
    await this.dataSource
      .getRepository(Passkey)
      .update({ id }, { counter: String(counter), lastUsedAt: () => 'now()' });
  }

  /** Removes one of the user's passkeys; whether it was theirs. */
  async remove(userId: number, id: number): Promise<boolean> {
    const result = await this.dataSource.getRepository(Passkey).delete({ id, userId });
    return (result.affected ?? 0) > 0;
  }
}
