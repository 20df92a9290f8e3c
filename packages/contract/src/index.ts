export * from './errors.js';
export * from './permissions.js';
export * from './groups.js';
export * from './limits.js';
export * from './messages.js';
export * from './studies.js';
export * from './session.js';
export * from './validation.js';
