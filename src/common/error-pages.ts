import type { Request } from 'express';

/** A page sent for an error: its status, its headers and its markup, as the template layer made them. */
export interface ErrorPage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The pages a browser is shown for errors of routes that speak HTML to visitors. The global filter asks them first;
 * null leaves the error to the contract's JSON envelope. Provided by the visitor routes, which common/ knows not.
 */
export abstract class ErrorPages {
  abstract pageFor(exception: unknown, request: Request): ErrorPage | null;
}
