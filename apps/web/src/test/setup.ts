import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
// jsdom has no IndexedDB; the browsers we support do (the upload resume records live there).
import 'fake-indexeddb/auto';

// Lazy pages are compiled on first import; on a busy machine that can take more than the default 1 s.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});
