/**
 * The database cannot be reached (down, restarting, out of connections) or did not finish a
 * statement in time (PostgreSQL's statement timeout). The request changed nothing; the areas
 * answer 503 in their error shape, and the same request may be sent again.
 */
export class StoreUnavailableError extends Error {
  constructor(override readonly cause: unknown) {
    super('The database is unavailable; try again shortly.');
    this.name = 'StoreUnavailableError';
  }
}
