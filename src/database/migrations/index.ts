import { InitialSchema1763712000000 } from './1763712000000-initial-schema';

/** Every migration, in order. Listed here rather than globbed so that tests, the app and the CLI see the same set. */
export const migrations = [InitialSchema1763712000000];
