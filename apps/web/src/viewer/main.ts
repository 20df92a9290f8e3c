import './viewer.css';
import { DATE_FORMATS, DEFAULT_DATE_FORMAT } from '@imaging-inbox/contract';
import { ParentCredential } from './credential';
import { ViewerDicomweb } from './dicomweb';
import { parseViewerHash } from '../lib/viewer-hash';
import { buildLayout } from './layout';
import { Stage } from './stage';
import { ViewerApp } from './viewer-app';
import { setLanguage, t } from '../lib/i18n';
import { deviceLanguageChoice, resolveLanguage } from '../lib/language-preference';
import { reloadOnStaleChunks } from '../lib/stale-chunk-reload';

/** The embedded viewer: `/viewer/?date_format=…#study/{storage_namespace}/{study_uid}/{phi_namespace}`. */
function boot(): void {
  const root = document.getElementById('viewer')!;
  const layout = buildLayout(root);
  const stage = new Stage(layout.stage);
  const credential = new ParentCredential();
  const target = parseViewerHash(window.location.hash);
  if (!target) {
    layout.status.textContent = t('No study to show.');
    return;
  }
  const asked = new URLSearchParams(window.location.search).get('date_format');
  const dateFormat = DATE_FORMATS.find((f) => f === asked) ?? DEFAULT_DATE_FORMAT;
  const app = new ViewerApp(
    layout,
    stage,
    new ViewerDicomweb(target.studyUid, credential),
    credential,
    dateFormat,
  );
  app.start().catch((error: unknown) => {
    layout.status.textContent = t('The study cannot be shown: {{reason}}', {
      reason: error instanceof Error ? error.message : String(error),
    });
  });
}

// Its texts' chunk gone with an upgrade since the frame opened: reload the frame once.
reloadOnStaleChunks();
// The viewer speaks the language the inbox chose on this device (it keeps it in localStorage).
setLanguage(resolveLanguage(deviceLanguageChoice())).then(boot, boot);
