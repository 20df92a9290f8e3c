/** The privacy module's one door: what the rest of the server may use of it (see README.md). */
export { DEIDENTIFICATION_OPTIONS, type DeidentificationOption } from './annex-e.js';
export {
  DeidentificationError,
  deidentify,
  REWRITE_MAX_INPUT,
  type DeidentificationProfile,
  type DeidentifyInput,
  type DeidentifyResult,
  type FieldRule,
} from './deidentify.js';
export { createPrivacyModule, registerPrivacyRoutes } from './privacy.module.js';
export {
  Deidentifier,
  DEIDENTIFY_MAX_FILE_BYTES,
  type BoundProfile,
  type DeidentifiedFile,
} from './deidentifier.js';
