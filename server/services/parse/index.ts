export {
  parseUrl,
  readPage,
  fallbackItem,
  type PageReading,
  type ParseResult,
  type ParsedPageItem,
  type ParseUrlOptions,
} from './parse-url.js';
export {
  fetchPage,
  FetchError,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  type FetchedPage,
  type FetchErrorCode,
  type FetchPageOptions,
  type ResolvedAddress,
  type Resolver,
} from './safe-fetch.js';
export { extractMetadata, isHtmlContentType, type PageMedia, type PageMetadata, type PageType } from './metadata.js';
export { decodeHtml } from './decode-html.js';
export { blockedAddressReason, isBlockedAddress } from './address-policy.js';
export {
  sanitizeForArchive,
  createArchiveImageFetcher,
  MAX_INLINE_IMAGE_BYTES,
  type ArchiveImageFetcher,
  type SanitizeForArchiveOptions,
} from './archive-sanitizer.js';
