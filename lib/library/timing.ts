// Named moments of the library's list requests (User Timing marks), read by bench/extension to
// split a search's time into its parts: the page, the message to the background, the server, the
// answer's way back, rendering. Only the latest mark of each name is kept, so they never pile up.

/** The moments, in the order a request passes them. `detail` carries the search text. */
type ListMoment =
  | 'tidemark:list-request' // the page asks the background (end of the typing pause, or opening)
  | 'tidemark:list-received' // the background has the message
  | 'tidemark:list-fetched' // the background has the server's answer, parsed
  | 'tidemark:list-answer'; // the page has the answer

export function markList(moment: ListMoment, search: string): void {
  performance.clearMarks(moment);
  performance.mark(moment, { detail: search });
}
