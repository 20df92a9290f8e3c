/**
 * The one access policy: every "may this caller do this to this study, group, account, link or
 * destination" is answered here, for api/v3, DICOMweb, storage, viewer tokens and link grants.
 * Refusals of objects the caller may not reach are the NOT_FOUND of a missing one.
 */
export * from './access.js';
export * from './accounts.js';
export * from './administration.js';
export * from './caller-loader.js';
export * from './groups.js';
export * from './study.js';
export * from './study-access.js';
export * from './study-lock.js';
export * from './viewer-tokens.js';
