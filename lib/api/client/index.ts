// Typed client for the Tidemark API, used by the extension's background (it holds the tokens) and by the web app (cookie mode).
// Types come from lib/api (`import type`: no schema library in the bundle).
import type { Article, ArticleState, ArticleUpload, Bookmark, BookmarkCreate, BookmarkList, BookmarksBulkUpdate, BookmarkUpdate, Collection, CollectionCreate, CollectionUpdate, HighlightListItem, LinksQuery, ParsedItem, LinksResponse, ShareInvite, ShareInviteResult, Tag, TagSuggestion, UrlExistsResponse, User, UserEnvelope } from '../types.js';
import { createHttp, type Http, type HttpOptions, type RequestOptions } from './http.js';

export { ApiClientError, type ApiErrorKind } from './errors.js';
export { apiBase, checkTidemarkServer, parseRetryAfter, type TokenSource, type RetryPolicy } from './http.js';

type WriteOptions = Pick<RequestOptions, 'idempotencyKey' | 'retries'>;

/**
 * Every write carries an Idempotency-Key: the caller's (the offline queue keeps one per write, so a
 * repeat after a restart is recognised), or a new one for this call, so its own retries after a lost
 * answer never do the work twice (no duplicate collection or bookmark).
 */
function keyed(opts: WriteOptions): WriteOptions & { idempotencyKey: string } {
  return { ...opts, idempotencyKey: opts.idempotencyKey ?? crypto.randomUUID() };
}

export class TidemarkApi {
  readonly #http: Http;

  constructor(options: HttpOptions) {
    this.#http = createHttp(options);
  }

  /** The signed-in user; with `token`, checks that token instead (a pasted test token). */
  async getUser(token?: string): Promise<User> {
    return (await this.#http<UserEnvelope>('GET', '/user', { token, retries: token ? 1 : undefined })).user;
  }

  /** Every collection: roots and nested ones (two requests, in parallel). */
  async getCollections(opts: Pick<RequestOptions, 'retries'> = {}): Promise<Collection[]> {
    const [roots, children] = await Promise.all([
      this.#http<{ items: Collection[] }>('GET', '/collections', opts),
      this.#http<{ items: Collection[] }>('GET', '/collections/childrens', opts),
    ]);
    return [...roots.items, ...children.items];
  }

  async createCollection(body: CollectionCreate, opts: WriteOptions = {}): Promise<Collection> {
    return (await this.#http<{ item: Collection }>('POST', '/collection', { body, ...keyed(opts) })).item;
  }

  async getBookmark(id: number, opts: Pick<RequestOptions, 'retries'> = {}): Promise<Bookmark> {
    return (await this.#http<{ item: Bookmark }>('GET', `/bookmark/${id}`, opts)).item;
  }

  async createBookmark(body: BookmarkCreate, opts: WriteOptions = {}): Promise<Bookmark> {
    return (await this.#http<{ item: Bookmark }>('POST', '/bookmark', { body, ...keyed(opts) })).item;
  }

  /** POST /bookmarks: up to 100 bookmarks in one request, answered in the order sent. */
  async createBookmarks(items: BookmarkCreate[], opts: WriteOptions = {}): Promise<Bookmark[]> {
    return (await this.#http<{ items: Bookmark[] }>('POST', '/bookmarks', { body: { items }, ...keyed(opts) })).items;
  }

  async updateBookmark(id: number, body: BookmarkUpdate, opts: WriteOptions = {}): Promise<Bookmark> {
    return (await this.#http<{ item: Bookmark }>('PUT', `/bookmark/${id}`, { body, ...keyed(opts) })).item;
  }

  /** Moves the bookmark to Trash (or deletes it for good when it is already there). */
  async removeBookmark(id: number, opts: WriteOptions = {}): Promise<Bookmark | null> {
    return (await this.#http<{ item?: Bookmark }>('DELETE', `/bookmark/${id}`, keyed(opts))).item ?? null;
  }

  /** Which of up to 100 URLs are saved. `result: false` means none is (not an error). */
  async urlExists(urls: string[], opts: Pick<RequestOptions, 'retries'> = {}): Promise<UrlExistsResponse> {
    return this.#http<UrlExistsResponse>('POST', '/import/url/exists', { body: { urls }, read: true, ...opts });
  }

  /** GET /import/url/parse: the server reads the page (title, excerpt, cover) without saving it. */
  async parseUrl(url: string): Promise<ParsedItem> {
    return (await this.#http<{ item: ParsedItem }>('GET', '/import/url/parse', { query: { url }, retries: 0 })).item;
  }

  /** GET /bookmark/{id}/article: the page's extracted text and its state (indexed, pending, failed, none). */
  async getArticle(id: number, opts: Pick<RequestOptions, 'retries'> = {}): Promise<Article> {
    return this.#http<Article>('GET', `/bookmark/${id}/article`, opts);
  }

  /** PUT /bookmark/{id}/article: the page as the user saw it, for the server to extract; its new state. */
  async putArticle(id: number, body: ArticleUpload, opts: WriteOptions = {}): Promise<ArticleState> {
    return this.#http<ArticleState>('PUT', `/bookmark/${id}/article`, { body, ...keyed(opts) });
  }

  /** POST /bookmark/{id}/article/retry: the server fetches the page again; its new state. */
  async retryArticle(id: number, opts: WriteOptions = {}): Promise<ArticleState> {
    return this.#http<ArticleState>('POST', `/bookmark/${id}/article/retry`, keyed(opts));
  }

  /** All the user's tags with their counts. */
  async getTags(): Promise<Tag[]> {
    return (await this.#http<{ items: Tag[] }>('GET', '/tags')).items;
  }

  /** The tags of one collection's bookmarks, with their counts. */
  async collectionTags(collectionId: number): Promise<Tag[]> {
    return (await this.#http<{ items: Tag[] }>('GET', `/tags/${collectionId}`, { retries: 1 })).items;
  }

  /** DELETE /tags/{collectionId}: takes `tags` off every bookmark of the collection. */
  async removeTags(collectionId: number, tags: string[], opts: WriteOptions = {}): Promise<void> {
    await this.#http('DELETE', `/tags/${collectionId}`, { body: { tags }, ...keyed(opts) });
  }

  /** Suggested tags for a bookmark (from the user's own tags). */
  async suggestTags(bookmarkId: number): Promise<string[]> {
    const res = await this.#http<{ items: TagSuggestion[] }>('GET', `/tags/suggest/${bookmarkId}`, { retries: 0 });
    return res.items.map((t) => t._id);
  }

  /** The saved-link index: a page of the full listing (`after`) or the changes since a cursor (`since`). */
  async links(query: LinksQuery): Promise<LinksResponse> {
    return this.#http<LinksResponse>('GET', '/links', { query });
  }

  // --- the library page ---

  /** One page of GET /bookmarks/{collectionId} (0 all, -1 Unsorted, -99 Trash). */
  async listBookmarks(
    collectionId: number,
    query: { search?: string; sort?: string; page: number; perpage: number; nested?: boolean },
    opts: { signal?: AbortSignal } = {},
  ): Promise<BookmarkList> {
    return this.#http<BookmarkList>('GET', `/bookmarks/${collectionId}`, { query, retries: 1, signal: opts.signal });
  }

  /** PUT /bookmarks/{collectionId}: one change to many bookmarks (those in `ids`, or all matching `search`). */
  async bulkUpdate(collectionId: number, body: BookmarksBulkUpdate, search?: string, opts: WriteOptions = {}): Promise<number> {
    return (await this.#http<{ modified: number }>('PUT', `/bookmarks/${collectionId}`, { body, query: { search }, ...keyed(opts) })).modified;
  }

  /** DELETE /bookmarks/{collectionId}: to Trash (from -99: for good). */
  async bulkRemove(collectionId: number, ids: number[] | undefined, search?: string, opts: WriteOptions = {}): Promise<number> {
    return (await this.#http<{ modified: number }>('DELETE', `/bookmarks/${collectionId}`, { body: ids ? { ids } : {}, query: { search }, ...keyed(opts) })).modified;
  }

  /** GET /highlights (or /highlights/{collectionId}), one page. */
  async listHighlights(collectionId: number, page: number, perpage: number): Promise<HighlightListItem[]> {
    const path = collectionId === 0 ? '/highlights' : `/highlights/${collectionId}`;
    return (await this.#http<{ items: HighlightListItem[] }>('GET', path, { query: { page, perpage }, retries: 1 })).items;
  }

  async updateCollection(id: number, body: CollectionUpdate): Promise<Collection> {
    return (await this.#http<{ item: Collection }>('PUT', `/collection/${id}`, { body, ...keyed({}) })).item;
  }

  async removeCollection(id: number): Promise<void> {
    await this.#http('DELETE', `/collection/${id}`, keyed({}));
  }

  async mergeCollections(ids: number[], to: number): Promise<number> {
    return (await this.#http<{ modified: number }>('PUT', '/collections/merge', { body: { ids, to }, ...keyed({}) })).modified;
  }

  async sortCollections(sort: string): Promise<void> {
    await this.#http('PUT', '/collections', { body: { sort }, ...keyed({}) });
  }

  async inviteToCollection(id: number, body: ShareInvite): Promise<ShareInviteResult> {
    return this.#http<ShareInviteResult>('POST', `/collection/${id}/sharing`, { body, ...keyed({}) });
  }
}
