/** An error that becomes the `{result:false, status, errorMessage}` envelope with that HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra envelope fields, e.g. `error` codes some clients read. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new ApiError(404, what);
export const forbidden = (why = 'You do not have access to this object') => new ApiError(403, why);
export const badRequest = (why: string) => new ApiError(400, why);
/** observed-behaviour.md: ids empty or over 100 on bulk operations. */
export const idsTooMany = () => new ApiError(413, 'ids array is larger than max 100 or empty');
