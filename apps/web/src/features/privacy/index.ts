// The privacy feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export const DeidentificationAdminPage = /* @__PURE__ */ lazyPage(
  () => import('./components/DeidentificationAdminPage'),
  (m) => m.DeidentificationAdminPage,
);
/** The account's de-identification profiles, for the de-identified download of the Downloads tab. */
export { useAnonymizationProfiles } from './api/anonymization';
/** A de-identification profile of the account, or none: destination, request link and routing rule forms. */
export { ProfileSelect } from './components/ProfileSelect';
