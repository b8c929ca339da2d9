// Resource types derived from the schemas: one declaration per shape, used by server and extension.
// Import these with `import type` from the extension so the schema library stays out of its bundles.
import type { Static } from '@sinclair/typebox';
import type * as S from './schemas/index.js';

export type User = Static<typeof S.User>;
export type UserConfig = Static<typeof S.UserConfig>;
export type UserGroup = Static<typeof S.UserGroup>;
export type PublicUser = Static<typeof S.PublicUser>;
export type UserUpdate = Static<typeof S.UserUpdate>;
export type UserStats = Static<typeof S.UserStats>;
export type Collection = Static<typeof S.Collection>;
export type CollectionCreate = Static<typeof S.CollectionCreate>;
export type CollectionUpdate = Static<typeof S.CollectionUpdate>;
export type Bookmark = Static<typeof S.Bookmark>;
export type BookmarkCreate = Static<typeof S.BookmarkCreate>;
export type BookmarkUpdate = Static<typeof S.BookmarkUpdate>;
export type BookmarkList = Static<typeof S.BookmarkList>;
export type BookmarkListQuery = Static<typeof S.BookmarkListQuery>;
export type BookmarksBulkUpdate = Static<typeof S.BookmarksBulkUpdate>;
export type Media = Static<typeof S.Media>;
export type Highlight = Static<typeof S.Highlight>;
export type HighlightChange = Static<typeof S.HighlightChange>;
export type HighlightListItem = Static<typeof S.HighlightListItem>;
export type Tag = Static<typeof S.Tag>;
export type Collaborator = Static<typeof S.Collaborator>;
export type CollaboratorList = Static<typeof S.CollaboratorList>;
export type PendingInvitation = Static<typeof S.PendingInvitation>;
export type ShareInvite = Static<typeof S.ShareInvite>;
export type ShareInviteResult = Static<typeof S.ShareInviteResult>;
export type TagSuggestion = Static<typeof S.TagSuggestion>;
export type ImportFileResponse = Static<typeof S.ImportFileResponse>;
export type ImportedFolder = Static<typeof S.ImportedFolder>;
export type ImportedBookmark = Static<typeof S.ImportedBookmark>;
export type CollectionsCleanResult = Static<typeof S.CollectionsCleanResult>;
export type UrlExistsResponse = Static<typeof S.UrlExistsResponse>;
export type ParsedItem = Static<typeof S.ParsedItem>;
export type ParseResponse = Static<typeof S.ParseResponse>;
export type TokenResponse = Static<typeof S.TokenResponse>;
export type LinkEntry = Static<typeof S.LinkEntry>;
export type LinksQuery = Static<typeof S.LinksQuery>;
export type LinksResponse = Static<typeof S.LinksResponse>;
export type ErrorEnvelope = Static<typeof S.ErrorEnvelope>;

export type Ok<T extends object = object> = { result: true } & T;
