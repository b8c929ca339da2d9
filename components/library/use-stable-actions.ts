// Callbacks that keep their identity across renders and call the latest render's handlers, so a
// memoised child (the sidebar, possibly a thousand collections) re-renders only when its data changes.
import { useMemo, useRef } from 'preact/hooks';

export function useStableActions<T extends object>(handlers: T): T {
  const latest = useRef(handlers);
  latest.current = handlers;
  return useMemo(
    () => Object.fromEntries(Object.keys(handlers).map((k) => [k, (...args: unknown[]) => (latest.current[k as keyof T] as (...a: unknown[]) => unknown)(...args)])) as T,
    [],
  );
}
