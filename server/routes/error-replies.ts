// Response schemas of failures, for routes' `schema.response` (and so for the OpenAPI docs).

const ERROR_REPLY = { $ref: 'ErrorEnvelope#' } as const;

/** Each of `statuses` answered with the error envelope `{result: false, status, errorMessage}` (registered in app.ts). */
export function errorReplies<const S extends number>(...statuses: S[]): Record<S, typeof ERROR_REPLY> {
  return Object.fromEntries(statuses.map((status) => [status, ERROR_REPLY])) as Record<S, typeof ERROR_REPLY>;
}
