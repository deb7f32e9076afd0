import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * A transaction under way, as repositories take it (an optional last argument): services pass it along without
 * knowing what it is made of.
 */
export type Transaction = EntityManager;

/** Work that spans repositories in one transaction, for services, which never import the ORM. */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in a transaction: committed when it resolves, rolled back when it throws. */
  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
