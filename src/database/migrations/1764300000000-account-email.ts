import { AddColumn } from './sql/add-column';

/** An account's email, as phpShort's account resource reports it: set with the CLI, null until then. */
export class AccountEmail1764300000000 extends AddColumn {
  name = 'AccountEmail1764300000000';

  constructor() {
    super('accounts', 'email', 'character varying(255)');
  }
}
