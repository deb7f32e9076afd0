import { AddColumn } from './sql/add-column';

/** The city of a click, for phpShort's `city` stats: null where no city database is installed. */
export class ClickCity1764500000000 extends AddColumn {
  name = 'ClickCity1764500000000';

  constructor() {
    super('clicks', 'city', 'character varying(128)');
  }
}
