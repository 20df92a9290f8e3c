// First: zod must know it may not compile parsers before any schema is built.
import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/App';

// Zod compiles object parsers with `new Function` unless told not to; the Content-Security-Policy
// allows no eval, so its probe would be reported as a violation on every page. Parsing here is
// small forms and answers, where the interpreted path is fast enough.
z.config({ jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
