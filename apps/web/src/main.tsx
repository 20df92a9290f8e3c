// First: zod must know it may not compile parsers before any schema is built.
import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { setLanguage } from './lib/i18n';
import { deviceLanguageChoice, resolveLanguage } from './lib/language-preference';
import { reloadOnStaleChunks } from './lib/stale-chunk-reload';

// A chunk of a build replaced since this page opened: reload once onto the current build.
reloadOnStaleChunks();
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const render = () =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
// The first paint already speaks the device's language; if its texts cannot load, English it is.
setLanguage(resolveLanguage(deviceLanguageChoice())).then(render, render);
