// Messages looked up the way Chrome's i18n.getMessage does, for pages without the extension API
// (the web app): named placeholders (`$ONE$`, any case) become their `content`, then `$1`…`$9`
// become the substitutions (missing ones empty) and `$$` a dollar sign. Pure.
import type { MessageSource } from './i18n.js';

export interface MessageEntry {
  message: string;
  placeholders?: Record<string, { content: string }>;
}

export function messageSource(messages: Record<string, MessageEntry>): MessageSource {
  return (key, subs) => {
    const entry = Object.hasOwn(messages, key) ? messages[key] : undefined;
    if (!entry) return undefined;
    const named = new Map(Object.entries(entry.placeholders ?? {}).map(([name, p]) => [name.toLowerCase(), p.content]));
    const expanded = entry.message.replace(/\$([A-Za-z0-9_@]+)\$/g, (whole, name: string) => named.get(name.toLowerCase()) ?? whole);
    return expanded.replace(/\$(\$|[1-9])/g, (_, d: string) => (d === '$' ? '$' : (subs[Number(d) - 1] ?? '')));
  };
}
