import { createElement, lazy, type ComponentType } from 'react';
import { reloadForStaleChunk } from './stale-chunk-reload';

export interface LazyPage<P extends object = object> {
  (props: P): ReturnType<typeof createElement>;
  /** Starts loading the chunk; resolves once the component is ready. */
  preload: () => Promise<unknown>;
}

/**
 * A code-split page that renders straight away once its chunk has loaded. Plain React.lazy
 * suspends on first render even for a loaded chunk, and React then holds the fallback for its
 * reveal throttle (about 300 ms), which would add that delay to every first visit of a page.
 * A chunk that fails to load (the build it belongs to is gone after an upgrade) reloads the page once
 * and stays suspended meanwhile; a failure the reload cannot cure reaches the error boundary, and
 * the next render tries the chunk again.
 */
export function lazyPage<M, P extends object = object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): LazyPage<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () => {
    pending ??= load().then(
      (module) => {
        loaded = pick(module);
        return { default: loaded };
      },
      (error: unknown) => {
        pending = null;
        if (reloadForStaleChunk()) return new Promise<never>(() => undefined);
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(preload);
  return Object.assign((props: P) => createElement(loaded ?? Lazy, props), { preload });
}
