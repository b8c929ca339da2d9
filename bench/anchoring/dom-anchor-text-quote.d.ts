// Minimal typings for the baseline library (it ships none).
declare module 'dom-anchor-text-quote' {
  export interface TextQuoteSelector {
    exact: string;
    prefix?: string;
    suffix?: string;
  }
  export function fromRange(root: Node, range: Range): TextQuoteSelector;
  export function toRange(root: Node, selector: TextQuoteSelector, options?: { hint?: number }): Range | null;
}
