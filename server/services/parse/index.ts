export { parseUrl, readPage, type ParsedPageItem } from './parse-url.js';
export { fetchPage, FetchError, type FetchErrorCode, type Resolver } from './safe-fetch.js';
export { extractMetadata } from './metadata.js';
export { blockedAddressReason, isBlockedAddress } from './address-policy.js';
export { sanitizeForArchive, createArchiveImageFetcher } from './archive-sanitizer.js';
export { createArchiveStylesheetFetcher } from './archive-stylesheets.js';
