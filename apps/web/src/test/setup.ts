import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
// jsdom has no IndexedDB; the browsers we support do (the upload resume records live there).
import 'fake-indexeddb/auto';

// Lazy pages are compiled on first import; on a busy machine that took more than 5 s (a route
// test waiting for its redirect failed once beside the server suite). A passing wait ends early.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});
