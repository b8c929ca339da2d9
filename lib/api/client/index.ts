// Typed client for the Tidemark API, used by the extension's background only (it holds the tokens).
// Types come from lib/api (`import type`: no schema library in the bundle).
import type { Bookmark, BookmarkCreate, BookmarkUpdate, Collection, CollectionCreate, LinksQuery, LinksResponse, Tag, TagSuggestion, UrlExistsResponse, User, UserEnvelope } from '../types.js';
import { createHttp, type Http, type HttpOptions, type RequestOptions } from './http.js';

export { ApiClientError, type ApiErrorKind } from './errors.js';
export { apiBase, checkTidemarkServer, parseRetryAfter, type TokenSource, type RetryPolicy } from './http.js';

type WriteOptions = Pick<RequestOptions, 'idempotencyKey' | 'retries'>;

export class TidemarkApi {
  private readonly http: Http;

  constructor(options: HttpOptions) {
    this.http = createHttp(options);
  }

  /** The signed-in user; with `token`, checks that token instead (a pasted test token). */
  async getUser(token?: string): Promise<User> {
    return (await this.http<UserEnvelope>('GET', '/user', { token, retries: token ? 1 : undefined })).user;
  }

  /** Every collection: roots and nested ones (two requests, in parallel). */
  async getCollections(): Promise<Collection[]> {
    const [roots, children] = await Promise.all([
      this.http<{ items: Collection[] }>('GET', '/collections'),
      this.http<{ items: Collection[] }>('GET', '/collections/childrens'),
    ]);
    return [...roots.items, ...children.items];
  }

  async createCollection(body: CollectionCreate, opts: WriteOptions = {}): Promise<Collection> {
    return (await this.http<{ item: Collection }>('POST', '/collection', { body, ...opts })).item;
  }

  async getBookmark(id: number): Promise<Bookmark> {
    return (await this.http<{ item: Bookmark }>('GET', `/bookmark/${id}`)).item;
  }

  async createBookmark(body: BookmarkCreate, opts: WriteOptions = {}): Promise<Bookmark> {
    return (await this.http<{ item: Bookmark }>('POST', '/bookmark', { body, ...opts })).item;
  }

  async updateBookmark(id: number, body: BookmarkUpdate, opts: WriteOptions = {}): Promise<Bookmark> {
    return (await this.http<{ item: Bookmark }>('PUT', `/bookmark/${id}`, { body, ...opts })).item;
  }

  /** Moves the bookmark to Trash (or deletes it for good when it is already there). */
  async removeBookmark(id: number, opts: WriteOptions = {}): Promise<Bookmark | null> {
    return (await this.http<{ item?: Bookmark }>('DELETE', `/bookmark/${id}`, opts)).item ?? null;
  }

  /** Which of up to 100 URLs are saved. `result: false` means none is (not an error). */
  async urlExists(urls: string[], opts: Pick<RequestOptions, 'retries'> = {}): Promise<UrlExistsResponse> {
    return this.http<UrlExistsResponse>('POST', '/import/url/exists', { body: { urls }, ...opts });
  }

  /** All the user's tags with their counts. */
  async getTags(): Promise<Tag[]> {
    return (await this.http<{ items: Tag[] }>('GET', '/tags')).items;
  }

  /** Suggested tags for a bookmark (from the user's own tags). */
  async suggestTags(bookmarkId: number): Promise<string[]> {
    const res = await this.http<{ items: TagSuggestion[] }>('GET', `/tags/suggest/${bookmarkId}`, { retries: 0 });
    return res.items.map((t) => t._id);
  }

  /** The saved-link index: a page of the full listing (`after`) or the changes since a cursor (`since`). */
  async links(query: LinksQuery): Promise<LinksResponse> {
    return this.http<LinksResponse>('GET', '/links', { query });
  }
}
