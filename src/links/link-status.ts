/**
 * The link-status rule, by the name the visitor routes import it by. It lives in `status/link-status.ts`, beside
 * its SQL twin, in a folder that imports nothing, so that `clicks/` can state it too.
 */
export { LinkStatus, linkStatus, type StatusInput } from './status/link-status';
