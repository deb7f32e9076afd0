import { InitialSchema1763712000000 } from './1763712000000-initial-schema';
import { LinksDomainsPixels1763798400000 } from './1763798400000-links-domains-pixels';
import { Clicks1763884800000 } from './1763884800000-clicks';
import { LinkCounters1764000000000 } from './1764000000000-link-counters';
import { LinkLists1764100000000 } from './1764100000000-link-lists';
import { ClickBatches1764200000000 } from './1764200000000-click-batches';
import { AccountEmail1764300000000 } from './1764300000000-account-email';
import { PixelValues1764400000000 } from './1764400000000-pixel-values';
import { ClickCity1764500000000 } from './1764500000000-click-city';
import { ClickWritePath1764600000000 } from './1764600000000-click-write-path';

/** Every migration, in order. Listed here rather than globbed so that tests, the app and the CLI see the same set. */
export const migrations = [
  InitialSchema1763712000000,
  LinksDomainsPixels1763798400000,
  Clicks1763884800000,
  LinkCounters1764000000000,
  LinkLists1764100000000,
  ClickBatches1764200000000,
  AccountEmail1764300000000,
  PixelValues1764400000000,
  ClickCity1764500000000,
  ClickWritePath1764600000000,
];
