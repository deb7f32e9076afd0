/**
 * A result that is there at once, or a promise of it. Only the visitor redirect's fast path returns one: a cached
 * link's plain redirect (the link in memory, the visitor limit and the click decided in memory) is answered
 * without allocating a promise, which the bench's plain row shows in its requests per second and CPU per request.
 * Its links are `VisitPipeline.resolve` and `plainVisit`, `ClickWriter.count`, the visitor limit's `hit` and the
 * budgets it leases. Everything else is plain `async`.
 */
export type ValueOrPromise<T> = T | Promise<T>;
