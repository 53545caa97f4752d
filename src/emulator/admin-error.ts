/** A refusal of an admin call, answered as `{"error": message}` with this HTTP status. */
export class AdminError extends Error {
  constructor(
    readonly httpStatus: 400 | 404 | 405 | 409 | 413,
    message: string,
  ) {
    super(message);
  }
}
