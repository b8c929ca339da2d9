// The parsed form of a `search` expression. Pure data: the parser builds it, the SQL compiler
// reads it. Every term can be negated (`-term`).

export type DateField = 'created' | 'lastUpdate';
export type FlagName = 'important' | 'notag' | 'note' | 'highlights' | 'file' | 'broken' | 'duplicate';
export type TextField = 'link' | 'title' | 'excerpt' | 'note';

export type Term =
  /** A word; word prefixes match too (`java` finds "javascript"). */
  | { kind: 'word'; value: string; negate: boolean }
  /** `"exact phrase"`: the words in this order. */
  | { kind: 'phrase'; value: string; negate: boolean }
  /** `#tag` or `#"multi word tag"`, compared case-insensitively. */
  | { kind: 'tag'; value: string; negate: boolean }
  /** `type:article` */
  | { kind: 'type'; value: string; negate: boolean }
  /**
   * `created:2024`, `created:2024-05`, `created:<2024-05-01`: `from` (inclusive) and `to`
   * (exclusive) are ISO timestamps of the named year, month or day (UTC). `op` '<' means before
   * `from`, '>' means from `to` on (after the whole period), '=' means within it.
   */
  | { kind: 'date'; field: DateField; op: '=' | '<' | '>'; from: string; to: string; negate: boolean }
  /** `important:true`, `❤️`, `notag:true`, `note:true`, `highlights:true`, `file:true`, `broken:true`, `duplicate:true`. */
  | { kind: 'flag'; flag: FlagName; value: boolean; negate: boolean }
  /** `domain:example.com`: that host or any subdomain of it. */
  | { kind: 'domain'; value: string; negate: boolean }
  /** `title:word`, `excerpt:word`, `note:word`, `link:word`: words (prefixes) within that field. */
  | { kind: 'field'; field: TextField; value: string; negate: boolean }
  /** `_id:123` */
  | { kind: 'id'; value: number; negate: boolean }
  /** `lang:en` */
  | { kind: 'lang'; value: string; negate: boolean };

export interface SearchQuery {
  /** 'AND' unless the expression holds `match:OR`. */
  match: 'AND' | 'OR';
  terms: Term[];
}
