import { createElement, lazy, type ComponentType } from 'react';

export interface LazyPage {
  (props: object): ReturnType<typeof createElement>;
  /** Starts loading the chunk; resolves once the component is ready. */
  preload: () => Promise<unknown>;
}

/**
 * A code-split page that renders straight away once its chunk has loaded. Plain React.lazy
 * suspends on first render even for a loaded chunk, and React then holds the fallback for its
 * reveal throttle (about 300 ms), which would add that delay to every first visit of a page.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  let loaded: ComponentType | null = null;
  let pending: Promise<{ default: ComponentType }> | null = null;
  const preload = () => {
    pending ??= load().then((module) => {
      loaded = pick(module);
      return { default: loaded };
    });
    return pending;
  };
  const Lazy = lazy(preload);
  const Page = ((props: object) => createElement(loaded ?? Lazy, props)) as LazyPage;
  Page.preload = preload;
  return Page;
}
