/**
 * Why the parse pool did not finish a task: the input is nested past the limit, took longer or
 * needed more memory than a parse may, cannot be read at all (a damaged or password-protected
 * PDF), the caller went away, or the pool was closed. The message is meant for the person who sent
 * the page or file.
 */
export type RefusalCode = 'too_deep' | 'too_slow' | 'too_much_memory' | 'unreadable' | 'cancelled' | 'closed';

export class ParseRefused extends Error {
  override readonly name = 'ParseRefused';
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }

  /** The HTTP status a route answers with: the input's fault is 413/422; a closing server 503. */
  get status(): number {
    switch (this.code) {
      case 'too_much_memory':
        return 413;
      case 'closed':
        return 503;
      case 'cancelled':
        return 499;
      default:
        return 422;
    }
  }
}
