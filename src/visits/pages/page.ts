import type { Html } from '../../common/html';

/** A visitor page: its title and heading as text, its body as markup built by {@link views}. */
export interface Page {
  title: string;
  /** The `<h1>`; the title when absent. */
  heading?: string;
  /** Markup above the heading (the stats page's kicker). */
  before?: Html;
  body: Html;
  /** Markup for the head, such as a meta refresh. */
  head?: Html;
  /** Extra Content-Security-Policy sources, by directive (the pixels page loads vendors' images and scripts). */
  allow?: Partial<Record<'img-src' | 'script-src' | 'frame-src' | 'connect-src', string[]>>;
  /** A page of several columns on a wide screen (the stats page). */
  wide?: boolean;
  /** The page has a form that posts (password, consent): its sandbox then lets forms be sent. */
  posts?: boolean;
}

/** The part of a page's options that the pixels markup decides. */
export type PageOptions = Pick<Page, 'allow'>;

export interface ComposedPage {
  headers: Record<string, string>;
  body: string;
}
