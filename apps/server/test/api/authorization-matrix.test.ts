import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/app.js';
import type { Outcome, Rule } from '../support/access-matrix.js';
import { expected, outcomeOf } from '../support/access-matrix.js';
import type { MatrixObject, ObjectKey, Principal, World } from '../support/access-world.js';
import { OBJECTS, PRINCIPALS, buildWorld, credentials, resetObjects } from '../support/access-world.js';
import { minimalPdf, wrapBody } from '../support/non-dicom.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * Every registered api/v3 and DICOMweb route × every kind of caller × every kind of object, with the
 * answer the access policy must give. A route that is registered but not in ROUTES fails the test:
 * whoever adds a route adds its row here, with the rule it follows.
 */

interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and query. */
  url: string;
  /** Form fields (POST, as api/v3 clients send them) or query parameters (GET). */
  params?: Record<string, string>;
  body?: Uint8Array | Buffer | FormData | string;
  contentType?: string;
}

interface RouteCase {
  rule: Rule;
  /** The request for one object (object-less rules get `undefined`). */
  request: (world: World, object: MatrixObject | undefined) => Request;
  /** The objects the route is tried on; object-less rules are tried once per caller. */
  objects?: readonly ObjectKey[];
  /** Answers that still mean the caller got through the policy (a refusal of the input itself). */
  accepts?: readonly string[];
  /** Changes state: run alone, its objects put back afterwards; `last` runs after everything else. */
  phase?: 'write' | 'last';
  /** Where the outcome is read from (the bundle's first sub-answer). */
  answerOf?: (body: unknown) => unknown;
}

const STUDY_OBJECTS = OBJECTS;
const GROUP_OBJECTS: readonly ObjectKey[] = ['emergency', 'intake', 'partner', 'shared'];
const ACCOUNT_OBJECTS: readonly ObjectKey[] = ['emergency', 'partner'];
const MANAGED_OBJECTS: readonly ObjectKey[] = ['emergency', 'intake', 'partner'];
const MADE_UP = '00000000-0000-4000-8000-000000000000';

const WRAP_FORM = {
  firstName: 'Ann',
  lastName: 'Lee',
  patientDOB: '1984-03-07',
  patientMRN: 'MRN-MATRIX',
  patientGender: 'F',
  studyDate: '2026-05-04',
  studyTime: '14:05',
  studyDescription: 'Matrix',
};

const post = (path: string, params: Record<string, string> = {}): Request => ({
  method: 'POST',
  url: `/api/v3/${path}`,
  params,
});
const get = (url: string, params: Record<string, string> = {}): Request => ({ method: 'GET', url, params });
const o = (object: MatrixObject | undefined) => object!;
const storage = (object: MatrixObject | undefined) =>
  `/api/v3/storage/study/${o(object).namespaceId}/${o(object).studyUid}`;
const dicomweb = (object: MatrixObject | undefined, rest = '') =>
  `/dicomweb/studies/${o(object).studyUid}${rest}`;
const series = (object: MatrixObject | undefined, rest = '') =>
  dicomweb(object, `/series/${o(object).seriesUid}${rest}`);
const instance = (object: MatrixObject | undefined, rest = '') =>
  series(object, `/instances/${o(object).instanceUid}${rest}`);
const stowBody = (file: Uint8Array) =>
  Buffer.concat([
    Buffer.from('--matrix\r\nContent-Type: application/dicom\r\n\r\n'),
    file,
    Buffer.from('\r\n--matrix--\r\n'),
  ]);
const STOW_TYPE = 'multipart/related; type="application/dicom"; boundary=matrix';

/** A user of the object's account who is not its admin (the demo viewer; the partner's own admin). */
const accountUser = (w: World, x: MatrixObject | undefined) =>
  o(x).account === 'demo' ? w.userIds.viewer : w.userIds.partnerAdmin;

const api = (path: string) => `GET,POST /api/v3/${path}`;
const view: Rule = { kind: 'study' };
const needs = (...permissions: NonNullable<Extract<Rule, { kind: 'study' }>['needs']>): Rule => ({
  kind: 'study',
  needs: permissions,
});
const session: Rule = { kind: 'session' };
const grant: Rule = { kind: 'grant' };
const dicomwebRead: Rule = { kind: 'dicomweb' };

/** Routes outside api/v3 and DICOMweb that the matrix covers too. */
const PROBES = ['/healthz', '/readyz', '/metrics'];

const ROUTES: Record<string, RouteCase> = {
  // Public: the same answer whoever asks.
  'GET /api/v3/health': { rule: { kind: 'public', expect: 'OK' }, request: () => get('/api/v3/health') },
  // Probes for load balancers and operators: no session, nothing about the data.
  'GET /healthz': { rule: { kind: 'public', expect: 'OK' }, request: () => get('/healthz') },
  'GET /readyz': { rule: { kind: 'public', expect: 'OK' }, request: () => get('/readyz') },
  // /metrics answers these loopback clients; a remote one needs METRICS_TOKEN (test/http/metrics.test.ts).
  'GET /metrics': { rule: { kind: 'public', expect: 'OK' }, request: () => get('/metrics') },
  [api('session/login')]: {
    rule: { kind: 'public', expect: 'OK' },
    request: () => post('session/login', { login: 'viewer@demo.local', password: 'Demo-pass-2024' }),
  },
  // Single sign-on: the look-up answers anyone the same; start finds no provider in the matrix's
  // world (none is configured); the callback without a state sends the browser back to sign-in.
  [api('session/sso/lookup')]: {
    rule: { kind: 'public', expect: 'OK' },
    request: () => post('session/sso/lookup', { email: 'viewer@demo.local' }),
  },
  [api('session/sso/start')]: {
    rule: { kind: 'public', expect: 'NOT_FOUND' },
    request: (w) => get('/api/v3/session/sso/start', { account_id: w.objects.emergency.accountId }),
  },
  [api('session/sso/callback')]: {
    rule: { kind: 'public', expect: 'OK' },
    request: () => get('/api/v3/session/sso/callback', { state: 'made-up', code: 'made-up' }),
    accepts: ['HTTP 303'],
  },
  // SAML (decision 0070): the ACS takes anyone's POST (the identity provider's form) and answers a
  // redirect; one naming no sign-in goes back to the sign-in page. The service provider's metadata
  // is public once an account has a SAML provider; the matrix's world has none.
  [api('session/sso/saml/acs')]: {
    rule: { kind: 'public', expect: 'OK' },
    request: () => post('session/sso/saml/acs', { SAMLResponse: 'bWFkZS11cA==', RelayState: 'made-up' }),
    accepts: ['HTTP 303'],
  },
  [api('session/sso/saml/metadata')]: {
    rule: { kind: 'public', expect: 'NOT_FOUND' },
    request: (w) => get('/api/v3/session/sso/saml/metadata', { account_id: w.objects.emergency.accountId }),
  },
  [api('user/password/lost')]: {
    rule: { kind: 'public', expect: 'OK' },
    request: () => post('user/password/lost', { email: 'nobody@matrix.example' }),
  },
  [api('user/password/reset')]: {
    rule: { kind: 'public', expect: 'NOT_FOUND' },
    request: () => post('user/password/reset', { token: 'made-up', password: 'Matrix-pass-2024' }),
  },
  [api('link/public/info')]: {
    rule: { kind: 'public', expect: 'OK' },
    request: (w) => post('link/public/info', { token: w.linkToken }),
  },
  [api('link/public/unlock')]: {
    rule: { kind: 'public', expect: 'OK' },
    request: (w) => post('link/public/unlock', { token: w.linkToken }),
  },
  [api('send/public/info')]: {
    rule: { kind: 'public', expect: 'NO_LINK_ERROR' },
    request: () => post('send/public/info', { token: 'made-up' }),
  },
  [api('send/public/code')]: {
    rule: { kind: 'public', expect: 'NO_LINK_ERROR' },
    request: () => post('send/public/code', { token: 'made-up' }),
  },
  [api('send/public/verify')]: {
    rule: { kind: 'public', expect: 'NO_LINK_ERROR' },
    request: () => post('send/public/verify', { token: 'made-up', code: '123456' }),
  },
  [api('send/public/study')]: {
    rule: { kind: 'public', expect: 'NO_LINK_ERROR' },
    request: () => post('send/public/study', { grant: 'made-up' }),
  },
  'GET,POST /api/v3/send/public/download': {
    rule: { kind: 'public', expect: 'NO_LINK_ERROR' },
    request: () => get('/api/v3/send/public/download', { grant: 'made-up' }),
  },
  // The bundle itself is public; each sub-request carries the caller's credentials.
  'POST /api/v3/bundle': {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, object) => ({
      method: 'POST',
      url: '/api/v3/bundle',
      body: JSON.stringify([{ URL: '/api/v3/study/get', uuid: o(object).uuid }]),
      contentType: 'application/json',
    }),
    answerOf: (body) => (Array.isArray(body) ? body[0] : body),
  },

  // The signed-in user's own things.
  [api('session/user')]: { rule: session, request: () => post('session/user') },
  [api('session/ttl')]: { rule: session, request: () => post('session/ttl') },
  [api('session/logout')]: { rule: session, request: () => post('session/logout'), phase: 'last' },
  [api('user/get')]: { rule: session, request: () => post('user/get') },
  [api('user/set')]: {
    rule: session,
    request: () => post('user/set'),
    // Nothing to change: every signed-in caller gets past the session to this answer.
    accepts: ['USER_INFO_NOT_SET'],
    phase: 'write',
  },
  [api('user/totp/get')]: { rule: session, request: () => post('user/totp/get') },
  [api('user/totp/enrol')]: { rule: session, request: () => post('user/totp/enrol') },
  // Without a code: a wrong one would count as a failed sign-in of each principal.
  [api('user/totp/confirm')]: {
    rule: session,
    request: () => post('user/totp/confirm'),
    accepts: ['MISSING_FIELDS'],
  },
  [api('user/totp/disable')]: {
    rule: session,
    request: () => post('user/totp/disable'),
    accepts: ['MISSING_FIELDS'],
  },
  [api('user/password/change')]: {
    rule: session,
    request: () =>
      post('user/password/change', {
        old_password: 'x',
        password: 'Matrix-pass-2024',
        password_confirm: 'other',
      }),
    accepts: ['INVALID_FIELD:password_confirm'],
  },
  [api('user/namespace/list')]: { rule: session, request: () => post('user/namespace/list') },
  [api('setting/get/all')]: { rule: session, request: () => post('setting/get/all') },
  [api('setting/get')]: { rule: session, request: () => post('setting/get', { key: 'matrix' }) },
  [api('setting/set')]: {
    rule: session,
    request: () => post('setting/set', { key: 'matrix', value: '1' }),
    phase: 'write',
  },
  [api('account/list')]: { rule: session, request: () => post('account/list') },
  [api('study/list')]: { rule: session, request: () => post('study/list') },
  [api('study/count')]: { rule: session, request: () => post('study/count') },
  [api('tag/list')]: { rule: session, request: () => post('tag/list') },
  [api('link/list')]: { rule: session, request: () => post('link/list') },
  [api('user/event/list')]: { rule: session, request: () => post('user/event/list') },

  // Accounts.
  [api('account/get')]: {
    rule: { kind: 'account', needs: 'member' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('account/get', { uuid: o(x).accountId }),
  },
  // The account's default language: its admins change it; its other members are refused. The value
  // is one the product does not speak: refused after the access check, nothing written.
  [api('account/set')]: {
    rule: { kind: 'account', needs: 'admin', lacking: 'NOT_PERMITTED' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('account/set', { uuid: o(x).accountId, 'settings.default_language': 'xx' }),
    accepts: ['INVALID_FIELD:settings.default_language'],
  },
  // '0' (not required) changes nothing: a matrix run that required codes would lock its own logins out.
  [api('account/two_factor/set')]: {
    rule: { kind: 'account', needs: 'admin', lacking: 'NOT_PERMITTED' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('account/two_factor/set', { account_id: o(x).accountId, required: '0' }),
  },
  // An account's provider: its admins only (the account-settings rule); a delegated admin or other
  // member is refused, another account's admin does not find it. The set names a role the account
  // does not have: refused after the access check, nothing written.
  [api('account/sso/get')]: {
    rule: { kind: 'account', needs: 'admin', lacking: 'NOT_PERMITTED' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('account/sso/get', { account_id: o(x).accountId }),
  },
  [api('account/sso/set')]: {
    rule: { kind: 'account', needs: 'admin', lacking: 'NOT_PERMITTED' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('account/sso/set', {
        account_id: o(x).accountId,
        type: 'oidc',
        display_name: 'Matrix',
        issuer: 'https://idp.matrix.example',
        client_id: 'matrix',
        default_role_id: MADE_UP,
      }),
    accepts: ['INVALID_FIELD:default_role_id'],
  },
  [api('group/list')]: {
    rule: { kind: 'account', needs: 'member' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('group/list', { account_id: o(x).accountId }),
  },
  [api('customfield/list')]: {
    rule: { kind: 'account', needs: 'member' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('customfield/list', { account_id: o(x).accountId }),
  },
  [api('study/exists')]: {
    rule: { kind: 'account', needs: 'member' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('study/exists', { studyUID: o(x).studyUid, accountUuid: o(x).accountId }),
  },
  [api('dicom/node/list')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('dicom/node/list', { account_id: o(x).accountId }),
  },
  [api('dicom/node/add')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('dicom/node/add', { account_id: o(x).accountId, ae_title: 'BAD\\AE' }),
    accepts: ['INVALID_FIELD', 'MISSING_FIELDS'],
  },
  [api('dicom/node/set')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('dicom/node/set', { uuid: o(x).nodeId!, ae_title: 'BAD\\AE' }),
    accepts: ['INVALID_FIELD'],
  },
  [api('dicom/node/delete')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('dicom/node/delete', { uuid: o(x).nodeId! }),
    phase: 'write',
  },
  // Would a scanner land in the group: for the account's admins, as its DICOM nodes (a read).
  [api('group/scanner/validate')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('group/scanner/validate', { uuid: o(x).groupId, ae_title: 'NO_SUCH_SCANNER' }),
  },
  // HL7 senders (decision 0056): the account's admins only, as its DICOM nodes.
  [api('hl7/sender/list')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('hl7/sender/list', { account_id: o(x).accountId }),
  },
  [api('hl7/sender/add')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('hl7/sender/add', { account_id: o(x).accountId, host: 'not-an-ip', facility: 'X' }),
    accepts: ['INVALID_FIELD'],
  },
  [api('hl7/sender/set')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('hl7/sender/set', { uuid: o(x).hl7SenderId!, facility: 'A|B' }),
    accepts: ['INVALID_FIELD'],
  },
  [api('hl7/sender/delete')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('hl7/sender/delete', { uuid: o(x).hl7SenderId! }),
    phase: 'write',
  },

  // De-identification profiles (decision 0067): seen with anonymization_view or _edit, changed with _edit.
  [api('anonymization/list')]: {
    rule: { kind: 'accountUsers', anyOf: ['anonymization_view', 'anonymization_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('anonymization/list', { account_id: o(x).accountId }),
  },
  [api('anonymization/get')]: {
    rule: { kind: 'accountUsers', anyOf: ['anonymization_view', 'anonymization_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('anonymization/get', { uuid: o(x).anonymizationId! }),
  },
  // A bad option: refused after the access check, nothing added.
  [api('anonymization/add')]: {
    rule: { kind: 'accountUsers', anyOf: ['anonymization_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('anonymization/add', { account_id: o(x).accountId, name: 'Matrix', options: '["noSuchOption"]' }),
    accepts: ['INVALID_FIELD:options'],
  },
  [api('anonymization/set')]: {
    rule: { kind: 'accountUsers', anyOf: ['anonymization_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('anonymization/set', { uuid: o(x).anonymizationId!, name: ' ' }),
    accepts: ['INVALID_FIELD:name'],
  },
  [api('anonymization/delete')]: {
    rule: { kind: 'accountUsers', anyOf: ['anonymization_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('anonymization/delete', { uuid: o(x).anonymizationId! }),
    phase: 'write',
  },

  // Users of an account: seen with account_user_view or _edit, changed with account_user_edit.
  [api('account/user/list')]: {
    rule: { kind: 'accountUsers', anyOf: ['account_user_view', 'account_user_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('account/user/list', { uuid: o(x).accountId }),
  },
  [api('account/user/get')]: {
    rule: { kind: 'accountUsers', anyOf: ['account_user_view', 'account_user_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (w, x) => post('account/user/get', { uuid: o(x).accountId, user_id: accountUser(w, x) }),
  },
  // An invitation of someone already in the account: refused after the access check.
  [api('account/user/add')]: {
    rule: { kind: 'accountUsers', anyOf: ['account_user_invite', 'account_user_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('account/user/add', {
        uuid: o(x).accountId,
        email: o(x).account === 'demo' ? 'viewer@demo.local' : 'partner@demo.local',
      }),
    accepts: ['INVALID_FIELD:email'],
  },
  [api('account/user/set')]: {
    rule: { kind: 'accountUsers', anyOf: ['account_user_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (w, x) =>
      post('account/user/set', { uuid: o(x).accountId, user_id: accountUser(w, x), name: ' ' }),
    accepts: ['INVALID_FIELD:name'],
  },
  [api('account/user/delete')]: {
    rule: { kind: 'accountUsers', anyOf: ['account_user_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('account/user/delete', { uuid: o(x).accountId, user_id: MADE_UP }),
    accepts: ['NOT_FOUND:user'],
  },
  // A member's lost phone: the account's user editors (test/api/two-factor-reset.test.ts: which of them may reset whom).
  [api('account/user/totp/reset')]: {
    rule: { kind: 'accountUsers', anyOf: ['account_user_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('account/user/totp/reset', { uuid: o(x).accountId, user_id: MADE_UP }),
    accepts: ['NOT_FOUND:user'],
  },
  // Names a user, not an account: one the caller may not manage is not found.
  [api('user/enable')]: {
    rule: { kind: 'accountUsers', anyOf: ['account_user_edit'], lacking: 'NOT_FOUND' },
    objects: ACCOUNT_OBJECTS,
    request: (w, x) => post('user/enable', { uuid: accountUser(w, x) }),
    phase: 'write',
  },
  // The signed-in user's own invitations (decision 0052): a made-up account has none to answer.
  [api('account/invitation/list')]: { rule: session, request: () => post('account/invitation/list') },
  [api('account/invitation/accept')]: {
    rule: session,
    request: () => post('account/invitation/accept', { uuid: MADE_UP }),
    accepts: ['NOT_FOUND:invitation'],
  },
  [api('account/invitation/decline')]: {
    rule: session,
    request: () => post('account/invitation/decline', { uuid: MADE_UP }),
    accepts: ['NOT_FOUND:invitation'],
  },

  // Roles of an account: seen with role_view or _edit, changed with role_edit.
  [api('role/list')]: {
    rule: { kind: 'accountUsers', anyOf: ['role_view', 'role_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('role/list', { account_id: o(x).accountId }),
  },
  // The permissions a new role gets (none): any signed-in user; an account named must be theirs.
  [api('role/default/permissions')]: {
    rule: { kind: 'account', needs: 'member' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('role/default/permissions', { account_id: o(x).accountId }),
  },
  [api('role/get')]: {
    rule: { kind: 'accountUsers', anyOf: ['role_view', 'role_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('role/get', { uuid: o(x).roleId! }),
  },
  // A name the account's role already has: refused after the access check.
  [api('role/add')]: {
    rule: { kind: 'accountUsers', anyOf: ['role_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('role/add', { account_id: o(x).accountId, name: 'Matrix role' }),
    accepts: ['INVALID_FIELD:name'],
  },
  // Renamed to its own name: nothing changes.
  [api('role/set')]: {
    rule: { kind: 'accountUsers', anyOf: ['role_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('role/set', { uuid: o(x).roleId!, name: 'Matrix role' }),
  },
  // The role is held: refused after the access check.
  [api('role/delete')]: {
    rule: { kind: 'accountUsers', anyOf: ['role_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('role/delete', { uuid: o(x).roleId! }),
    accepts: ['IN_USE:role'],
  },

  // Custom field definitions: the account's group administrators (group_edit) define them.
  // A radio field without choices: refused after the access check.
  [api('customfield/add')]: {
    rule: { kind: 'accountUsers', anyOf: ['group_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('customfield/add', { account_id: o(x).accountId, name: 'Matrix radio', type: 'radio' }),
    accepts: ['INVALID_FIELD:options'],
  },
  // Renamed to its own name: nothing changes.
  [api('customfield/set')]: {
    rule: { kind: 'accountUsers', anyOf: ['group_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('customfield/set', { uuid: o(x).customFieldId!, name: 'Matrix field' }),
  },
  // A made-up field: every signed-in caller gets past the session to its NOT_FOUND (its deletion by
  // a group administrator, and the refusal of others, are in custom-field-admin.test.ts).
  [api('customfield/delete')]: {
    rule: session,
    request: () => post('customfield/delete', { uuid: MADE_UP }),
    accepts: ['NOT_FOUND:customfield'],
  },

  // Groups of an account as its administrators see them: group_view or _edit, changed with group_edit.
  [api('account/group/list')]: {
    rule: { kind: 'accountUsers', anyOf: ['group_view', 'group_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('account/group/list', { uuid: o(x).accountId }),
  },
  [api('group/user/list')]: {
    rule: { kind: 'accountUsers', anyOf: ['group_view', 'group_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('group/user/list', { uuid: o(x).groupId }),
  },
  // The name of a group the account has: refused after the access check.
  [api('group/add')]: {
    rule: { kind: 'accountUsers', anyOf: ['group_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('group/add', {
        account_id: o(x).accountId,
        name: o(x).account === 'demo' ? 'Emergency' : 'Referrals',
        type: 'CLOUD',
      }),
    accepts: ['INVALID_FIELD:name'],
  },
  // Renamed to its own name: nothing changes.
  [api('group/set')]: {
    rule: { kind: 'accountUsers', anyOf: ['group_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('group/set', { uuid: o(x).groupId, name: o(x).account === 'demo' ? 'Emergency' : 'Referrals' }),
  },
  // The group holds studies: refused after the access check.
  [api('group/delete')]: {
    rule: { kind: 'accountUsers', anyOf: ['group_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('group/delete', { uuid: o(x).groupId }),
    accepts: ['NOT_EMPTY:studies'],
  },
  // A made-up role: refused after the access check.
  [api('group/user/add')]: {
    rule: { kind: 'accountUsers', anyOf: ['group_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (w, x) =>
      post('group/user/add', { uuid: o(x).groupId, user_id: accountUser(w, x), role_id: MADE_UP }),
    accepts: ['INVALID_FIELD:role_id'],
  },
  [api('group/user/delete')]: {
    rule: { kind: 'accountUsers', anyOf: ['group_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('group/user/delete', { uuid: o(x).groupId, user_id: MADE_UP }),
    accepts: ['NOT_FOUND:user'],
  },

  // Routing rules: seen with route_view or route_edit, changed with route_edit (an admin holds both).
  [api('route/list')]: {
    rule: { kind: 'accountUsers', anyOf: ['route_view', 'route_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('route/list', { account_id: o(x).accountId }),
  },
  [api('route/get')]: {
    rule: { kind: 'accountUsers', anyOf: ['route_view', 'route_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('route/get', { uuid: o(x).routeId! }),
  },
  // An action naming a made-up group: refused after the access check.
  [api('route/add')]: {
    rule: { kind: 'accountUsers', anyOf: ['route_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('route/add', {
        account_id: o(x).accountId,
        name: 'Matrix',
        when: 'upload',
        actions: JSON.stringify([{ type: 'share_group', group_id: MADE_UP }]),
      }),
    accepts: ['INVALID_FIELD:actions.0'],
  },
  [api('route/set')]: {
    rule: { kind: 'accountUsers', anyOf: ['route_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('route/set', { uuid: o(x).routeId!, name: ' ' }),
    accepts: ['INVALID_FIELD:name'],
  },
  [api('route/delete')]: {
    rule: { kind: 'accountUsers', anyOf: ['route_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('route/delete', { uuid: o(x).routeId! }),
    phase: 'write',
  },
  // Running a rule by hand: study_manual_route on the study; a made-up rule is refused after that.
  [api('study/manual/route')]: {
    rule: { kind: 'study', needs: ['study_manual_route'] },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/manual/route', { uuid: o(x).uuid, route_id: MADE_UP }),
    accepts: ['NOT_FOUND:route'],
  },

  // Webhooks and their deliveries: an account's admins only.
  [api('webhook/event')]: { rule: session, request: () => post('webhook/event') },
  [api('webhook/list')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('webhook/list', { account_id: o(x).accountId }),
  },
  [api('webhook/get')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('webhook/get', { uuid: o(x).webhookId! }),
  },
  [api('webhook/delivery/list')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('webhook/delivery/list', { uuid: o(x).webhookId! }),
  },
  // A target on the cloud metadata address: refused after the access check.
  [api('webhook/add')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('webhook/add', {
        account_id: o(x).accountId,
        name: 'Matrix',
        url: 'http://169.254.169.254/latest/meta-data',
        event: 'study_uploaded',
      }),
    accepts: ['INVALID_FIELD:url'],
  },
  [api('webhook/set')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('webhook/set', { uuid: o(x).webhookId!, name: ' ' }),
    accepts: ['INVALID_FIELD:name'],
  },
  [api('webhook/delete')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('webhook/delete', { uuid: o(x).webhookId! }),
    phase: 'write',
  },

  // The account's audit log: audit_view (an admin holds it).
  [api('audit/log')]: {
    rule: { kind: 'accountUsers', anyOf: ['audit_view'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('audit/log', { account_id: o(x).accountId }),
  },
  // Ambra's names for the same log: the whole of it, one user's actions, failed sign-ins.
  [api('audit/account')]: {
    rule: { kind: 'accountUsers', anyOf: ['audit_view'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('audit/account', { account_id: o(x).accountId }),
  },
  [api('audit/user')]: {
    rule: { kind: 'accountUsers', anyOf: ['audit_view'] },
    objects: ACCOUNT_OBJECTS,
    request: (w, x) => post('audit/user', { account_id: o(x).accountId, user_id: w.userIds.admin }),
  },
  [api('audit/failedlogins')]: {
    rule: { kind: 'accountUsers', anyOf: ['audit_view'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('audit/failedlogins', { account_id: o(x).accountId }),
  },

  // The account's label overrides: read by its members, changed with label_edit (an admin holds it).
  // The writes name a language the product does not speak: refused after the access check.
  [api('label/list')]: {
    rule: { kind: 'account', needs: 'member' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('label/list', { account_id: o(x).accountId }),
  },
  [api('label/set')]: {
    rule: { kind: 'accountUsers', anyOf: ['label_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('label/set', { account_id: o(x).accountId, language: 'xx', key: 'Inbox', text: 'Matrix' }),
    accepts: ['INVALID_FIELD:language'],
  },
  [api('label/delete')]: {
    rule: { kind: 'accountUsers', anyOf: ['label_edit'] },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('label/delete', { account_id: o(x).accountId, language: 'xx', key: 'Inbox' }),
    accepts: ['INVALID_FIELD:language'],
  },

  // PACS destinations: listed by whoever searches or pushes in the account, managed by its admins.
  [api('destination/list')]: {
    rule: { kind: 'account', needs: 'destinations' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('destination/list', { account_id: o(x).accountId }),
  },
  [api('destination/get')]: {
    rule: { kind: 'account', needs: 'destinations' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('destination/get', { uuid: o(x).destinationId! }),
  },
  [api('destination/add')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('destination/add', { account_id: o(x).accountId, aetitle: 'BAD\\AE' }),
    accepts: ['INVALID_FIELD', 'MISSING_FIELDS'],
  },
  [api('destination/set')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('destination/set', { uuid: o(x).destinationId!, aetitle: 'BAD\\AE' }),
    accepts: ['INVALID_FIELD'],
  },
  [api('destination/echo')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('destination/echo', { uuid: o(x).destinationId! }),
  },
  // Retrieve Study: destination_search in the group studies are copied to (copy_to).
  [api('destination/search')]: {
    rule: { kind: 'group', needs: 'destination_search', lacking: 'NOT_FOUND' },
    objects: GROUP_OBJECTS,
    request: (_w, x) =>
      post('destination/search', {
        uuid: o(x).destinationId!,
        copy_to: o(x).namespaceId,
        patient_name: 'MATRIX',
      }),
  },
  // A worklist search: destination_search_mwl in the group it is made for, a destination of that
  // group's account. The matrix's destinations take no worklist search: past the access check the
  // call is refused for that alone.
  [api('destination/search/mwl')]: {
    rule: { kind: 'group', needs: 'destination_search_mwl', lacking: 'NOT_FOUND' },
    objects: GROUP_OBJECTS,
    accepts: ['INVALID_FIELD:uuid'],
    request: (_w, x) =>
      post('destination/search/mwl', {
        uuid: o(x).destinationId!,
        namespace_id: o(x).namespaceId,
        patient_name: 'MATRIX',
      }),
  },
  [api('destination/search/get')]: {
    rule: { kind: 'group', needs: 'destination_search', lacking: 'NOT_FOUND' },
    objects: MANAGED_OBJECTS,
    request: (_w, x) => post('destination/search/get', { uuid: o(x).searchId! }),
  },
  [api('destination/retrieve')]: {
    rule: { kind: 'group', needs: 'destination_search', lacking: 'NOT_FOUND' },
    objects: MANAGED_OBJECTS,
    request: (_w, x) =>
      post('destination/retrieve', { destination_search_id: o(x).searchId!, study_uid: o(x).studyUid }),
  },
  [api('destination/delete')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('destination/delete', { uuid: o(x).destinationId! }),
    phase: 'write',
  },

  // Orders: an account's own (order_view / order_edit there), and a group's Search Order (order_view in it).
  [api('order/add')]: {
    rule: { kind: 'orders', needs: 'order_edit' },
    objects: ACCOUNT_OBJECTS,
    // The first caller let through adds it; the next ones get past the policy to the duplicate check.
    request: (_w, x) =>
      post('order/add', { account_id: o(x).accountId, accession_number: 'MATRIX', patient_name: 'MATRIX^M' }),
    accepts: ['INVALID_FIELD:accession_number'],
    phase: 'write',
  },
  [api('order/list')]: {
    rule: { kind: 'orders', needs: 'order_view' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) =>
      post('order/list', { account_id: o(x).accountId, 'filter.patientid.equals': 'MATRIX' }),
  },
  [api('order/search')]: {
    rule: { kind: 'group', needs: 'order_view' },
    objects: GROUP_OBJECTS,
    request: (_w, x) =>
      post('order/search', { group_id: o(x).groupId, 'filter.accession_number.equals': 'MATRIX' }),
  },

  // Groups (namespaces).
  // Administrators of the account's groups read those they are not in too (group-admin.test.ts).
  [api('group/get')]: {
    rule: { kind: 'group', administeredWith: ['group_view', 'group_edit'] },
    objects: GROUP_OBJECTS,
    request: (_w, x) => post('group/get', { uuid: o(x).groupId }),
  },
  // Refused config: the admin gets through the policy to the check of the config itself.
  [api('group/config/set')]: {
    rule: { kind: 'account', needs: 'admin' },
    objects: ACCOUNT_OBJECTS,
    request: (_w, x) => post('group/config/set', { uuid: o(x).groupId, config: '{"promoteTo":"none"}' }),
    accepts: ['INVALID_FIELD'],
  },
  [api('session/permissions')]: {
    rule: { kind: 'group', denied: 'NOT_MEMBER' },
    objects: GROUP_OBJECTS,
    request: (_w, x) => post('session/permissions', { namespace_id: o(x).namespaceId }),
  },
  [api('namespace/share_code')]: {
    rule: { kind: 'group' },
    objects: GROUP_OBJECTS,
    request: (_w, x) => post('namespace/share_code', { namespace_id: o(x).namespaceId }),
  },
  [api('namespace/engine/fqdn')]: {
    rule: { kind: 'sessionOptional', signedIn: { kind: 'group' } },
    objects: GROUP_OBJECTS,
    request: (_w, x) => post('namespace/engine/fqdn', { namespace_id: o(x).namespaceId }),
  },
  // Read by members and the account's admins; setting needs group_edit (namespace-settings.test.ts).
  [api('namespace/settings')]: {
    rule: { kind: 'group', adminDenied: 'OK' },
    objects: GROUP_OBJECTS,
    request: (_w, x) => post('namespace/settings', { uuid: o(x).namespaceId }),
  },
  [api('user/event')]: {
    // A holder of account_user_view reads members' flags: they know the account's groups too.
    rule: { kind: 'group', adminDenied: 'NOT_MEMBER', knownWith: ['account_user_view'] },
    objects: GROUP_OBJECTS,
    request: (_w, x) => post('user/event', { namespace_id: o(x).namespaceId }),
  },
  [api('user/event/set')]: {
    rule: {
      kind: 'group',
      adminDenied: 'NOT_MEMBER',
      knownWith: ['account_user_edit'],
      needs: 'user_modify_notifications',
    },
    objects: GROUP_OBJECTS,
    request: (_w, x) => post('user/event/set', { namespace_id: o(x).namespaceId, event_share: '0' }),
    phase: 'write',
  },
  [api('link/add')]: {
    rule: { kind: 'group', needs: 'link_edit' },
    objects: GROUP_OBJECTS,
    request: (_w, x) =>
      post('link/add', {
        namespace_id: o(x).namespaceId,
        action: 'STUDY_UPLOAD',
        email: 'matrix@hospital.example',
        max_hits: '1',
        minutes_alive: '1',
      }),
    phase: 'write',
  },
  [api('link/delete')]: {
    rule: { kind: 'group', needs: 'link_edit', lacking: 'NOT_FOUND' },
    objects: MANAGED_OBJECTS,
    request: (_w, x) => post('link/delete', { uuid: o(x).linkId! }),
    phase: 'write',
  },
  [api('upload/session/create')]: {
    rule: { kind: 'group', needs: 'study_upload' },
    objects: GROUP_OBJECTS,
    request: (_w, x) => post('upload/session/create', { namespace_id: o(x).namespaceId, size: '1000' }),
  },
  [api('study/add')]: {
    rule: { kind: 'group', needs: 'study_upload' },
    objects: GROUP_OBJECTS,
    request: (_w, x) =>
      post('study/add', { storage_namespace: o(x).namespaceId, study_uid: '1.2.826.0.1.3680043.99.1' }),
    phase: 'write',
  },
  'POST /api/v3/storage/namespace/:namespace_id/image': {
    rule: { kind: 'group', needs: 'study_upload' },
    objects: GROUP_OBJECTS,
    request: (w, x) => ({
      method: 'POST',
      url: `/api/v3/storage/namespace/${o(x).namespaceId}/image`,
      body: w.dicomFile,
      contentType: 'application/dicom',
    }),
    phase: 'write',
  },
  'POST /api/v3/storage/namespace/:namespace_id/wrap': {
    rule: { kind: 'group', needs: 'study_upload' },
    objects: GROUP_OBJECTS,
    request: (_w, x) => ({
      method: 'POST',
      url: `/api/v3/storage/namespace/${o(x).namespaceId}/wrap`,
      body: wrapBody(WRAP_FORM, [{ name: 'a.pdf', bytes: minimalPdf('matrix') }]),
    }),
    phase: 'write',
  },
  'POST /dicomweb/studies': {
    rule: { kind: 'group', needs: 'study_upload' },
    objects: GROUP_OBJECTS,
    request: (w, x) => ({
      method: 'POST',
      url: `/dicomweb/studies?namespace=${o(x).namespaceId}`,
      body: stowBody(w.dicomFile),
      contentType: STOW_TYPE,
    }),
    phase: 'write',
  },
  'POST /dicomweb/studies/:study': {
    rule: { kind: 'group', needs: 'study_upload' },
    objects: GROUP_OBJECTS,
    request: (w, x) => ({
      method: 'POST',
      url: `/dicomweb/studies/1.2.3.4?namespace=${o(x).namespaceId}`,
      body: stowBody(w.dicomFile),
      contentType: STOW_TYPE,
    }),
    // The file belongs to another study: refused part by part, after the access check.
    accepts: ['HTTP 409'],
    phase: 'write',
  },

  // Upload sessions of a sign-in session.
  [api('upload/session/status')]: {
    rule: { kind: 'uploadSession' },
    request: (w) => post('upload/session/status', { id: w.uploadSession.clinician }),
  },
  'PUT,POST /api/v3/upload/session/chunk': {
    rule: { kind: 'uploadSession' },
    request: (w) => ({
      method: 'PUT',
      url: `/api/v3/upload/session/chunk?id=${w.uploadSession.clinician}&offset=7`,
      body: new Uint8Array(3),
      contentType: 'application/octet-stream',
    }),
    accepts: ['UPLOAD_OFFSET_MISMATCH'],
    phase: 'write',
  },
  [api('upload/session/complete')]: {
    rule: { kind: 'uploadSession' },
    request: (w) => post('upload/session/complete', { id: w.uploadSession.clinician }),
    accepts: ['UPLOAD_INCOMPLETE'],
    phase: 'write',
  },

  // The outside party's link grant.
  'POST /api/v3/link/public/upload': {
    rule: grant,
    request: (w) => ({
      method: 'POST',
      url: '/api/v3/link/public/upload',
      body: w.dicomFile,
      contentType: 'application/dicom',
    }),
    phase: 'write',
  },
  'POST /api/v3/link/public/wrap': {
    rule: grant,
    request: () => ({
      method: 'POST',
      url: '/api/v3/link/public/wrap',
      body: wrapBody(WRAP_FORM, [{ name: 'a.pdf', bytes: minimalPdf('matrix') }]),
    }),
    phase: 'write',
  },
  [api('link/public/upload/session/create')]: {
    rule: grant,
    request: () => post('link/public/upload/session/create', { size: '1000' }),
  },
  [api('link/public/upload/session/status')]: {
    rule: grant,
    request: (w) => post('link/public/upload/session/status', { id: w.uploadSession.grant }),
  },
  'PUT,POST /api/v3/link/public/upload/session/chunk': {
    rule: grant,
    request: (w) => ({
      method: 'PUT',
      url: `/api/v3/link/public/upload/session/chunk?id=${w.uploadSession.grant}&offset=7`,
      body: new Uint8Array(3),
      contentType: 'application/octet-stream',
    }),
    accepts: ['UPLOAD_OFFSET_MISMATCH'],
    phase: 'write',
  },
  [api('link/public/upload/session/complete')]: {
    rule: grant,
    request: (w) => post('link/public/upload/session/complete', { id: w.uploadSession.grant }),
    accepts: ['UPLOAD_INCOMPLETE'],
    phase: 'write',
  },

  // Studies, by uuid.
  // Push to PACS: study_push on the study (a second push while one is pending still passed the policy).
  [api('study/push')]: {
    rule: { kind: 'study', needs: ['study_push'] },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/push', { uuid: o(x).uuid, destination_id: o(x).destinationId! }),
    accepts: ['PENDING'],
  },
  // Nominating to a made-up gatekeeper: past study_share, refused by the promote list.
  [api('study/nominate')]: {
    rule: { kind: 'study', needs: ['study_share'], deleted: 'refused' },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/nominate', { uuid: o(x).uuid, gatekeeper_id: MADE_UP }),
    accepts: ['NOT_PERMITTED:gatekeeper'],
  },
  [api('study/nominate/cancel')]: {
    rule: needs('study_share'),
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/nominate/cancel', { uuid: o(x).uuid }),
    accepts: ['NOT_FOUND:nomination'],
  },
  // Not a nomination: past study_approve, refused by the workflow.
  [api('study/reject')]: {
    rule: { kind: 'study', needs: ['study_approve'], deleted: 'refused' },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/reject', { uuid: o(x).uuid, reason: 'Matrix', message: 'Matrix' }),
    accepts: ['NOT_FOUND:nomination'],
  },
  // Not a nomination: past study_approve and study_push, refused by the workflow.
  [api('study/process')]: {
    rule: { kind: 'study', needs: ['study_approve', 'study_push'], deleted: 'refused' },
    objects: STUDY_OBJECTS,
    request: (_w, x) =>
      post('study/process', { uuid: o(x).uuid, destination_id: o(x).destinationId ?? MADE_UP }),
    accepts: ['NOT_FOUND:nomination'],
  },
  // Not a nomination: past study_approve and study_push, refused by the workflow.
  [api('study/approve')]: {
    rule: { kind: 'study', needs: ['study_approve', 'study_push'], deleted: 'refused' },
    objects: STUDY_OBJECTS,
    request: (_w, x) => get('/api/v3/study/approve', { uuid: o(x).uuid }),
    accepts: ['NOT_FOUND:nomination'],
  },
  // Search Patient: past study_approve and study_push, refused as the group is no gatekeeper or
  // (PACS Intake) has no C-Find destination.
  [api('study/patient/search')]: {
    rule: { kind: 'study', needs: ['study_approve', 'study_push'], deleted: 'refused' },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/patient/search', { uuid: o(x).uuid, patientid: 'MATRIX' }),
    accepts: ['NOT_FOUND:gatekeeper', 'NOT_FOUND:query_destination'],
  },
  [api('study/nomination')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/nomination', { uuid: o(x).uuid }),
  },
  [api('study/report/list')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/report/list', { uuid: o(x).uuid }),
  },
  [api('study/report/add')]: {
    rule: { kind: 'study', needs: ['study_report_add'], deleted: 'refused' },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/report/add', { uuid: o(x).uuid, text: 'Matrix report.' }),
    phase: 'write',
  },
  [api('study/push/list')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/push/list', { uuid: o(x).uuid }),
  },
  [api('study/get')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/get', { uuid: o(x).uuid }),
  },
  [api('study/thumbnails')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/thumbnails', { uuid: o(x).uuid }),
  },
  // Ambra's study/permissions: the permissions object study/get answers.
  [api('study/permissions')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/permissions', { uuid: o(x).uuid }),
  },
  [api('audit/object')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('audit/object', { uuid: o(x).uuid }),
  },
  [api('study/attachment/list')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/attachment/list', { uuid: o(x).uuid }),
  },
  [api('study/share/list')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/share/list', { uuid: o(x).uuid }),
  },
  [api('study/send/list')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/send/list', { uuid: o(x).uuid }),
  },
  [api('connection/list')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('connection/list', { uuid: o(x).uuid }),
  },
  [api('study/viewer/token')]: {
    rule: { kind: 'study', deleted: 'hidden' },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/viewer/token', { uuid: o(x).uuid }),
  },
  [api('study/share/who')]: {
    rule: needs('study_share', 'study_share_user'),
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/share/who', { uuid: o(x).uuid, type: 'user' }),
  },
  [api('study/share')]: {
    rule: needs('study_share', 'study_share_user'),
    objects: STUDY_OBJECTS,
    // A made-up user is refused after the access check, so nothing is copied.
    request: (_w, x) => post('study/share', { uuid: o(x).uuid, user_id: MADE_UP }),
    accepts: ['NOT_FOUND:user'],
  },
  [api('study/share/stop')]: {
    rule: needs('study_share', 'study_share_user'),
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/share/stop', { uuid: o(x).uuid, user_id: MADE_UP }),
    accepts: ['NOT_FOUND:share'],
  },
  'GET,POST /api/v3/study/download': {
    rule: needs('study_download'),
    objects: STUDY_OBJECTS,
    request: (_w, x) => get('/api/v3/study/download', { uuids: o(x).uuid }),
  },
  [api('study/set')]: {
    rule: {
      kind: 'study',
      needs: ['study_edit'],
      groupFlag: true,
      denied: 'STUDY_SET_PARAMS_UUID_NOT_FOUND',
    },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/set', { uuid: o(x).uuid }),
    accepts: ['LOCKED'],
    phase: 'write',
  },
  [api('study/lock')]: {
    rule: { kind: 'study', needs: ['study_edit'], groupFlag: true },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/lock', { uuid: o(x).uuid }),
    accepts: ['LOCKED'],
    phase: 'write',
  },
  [api('study/unlock')]: {
    rule: { kind: 'study', needs: ['study_edit'], groupFlag: true },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/unlock', { uuid: o(x).uuid }),
    accepts: ['LOCKED'],
    phase: 'write',
  },
  [api('study/sync')]: {
    rule: { kind: 'study', needs: ['study_upload'], groupFlag: true, deleted: 'hidden' },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/sync', { uuid: o(x).uuid, image_count: '0' }),
    phase: 'write',
  },
  [api('study/timing/event')]: {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/timing/event', { uuid: o(x).uuid, event: 'matrix_open', timing: '12' }),
    phase: 'write',
  },
  [api('study/lock/break')]: {
    rule: { kind: 'study', accountAdmin: true },
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/lock/break', { uuid: o(x).uuid }),
    phase: 'write',
  },
  [api('study/delete')]: {
    rule: needs('study_delete'),
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/delete', { uuid: o(x).uuid }),
    phase: 'write',
  },
  [api('study/restore')]: {
    rule: needs('study_delete'),
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/restore', { uuid: o(x).uuid }),
    phase: 'write',
  },
  [api('study/star')]: {
    rule: needs('study_star'),
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('study/star', { uuid: o(x).uuid, star: '1' }),
    phase: 'write',
  },
  [api('tag/add')]: {
    rule: needs('study_tag'),
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('tag/add', { object: 'study', object_id: o(x).uuid, tag: 'matrix' }),
    phase: 'write',
  },
  [api('tag/delete')]: {
    rule: needs('study_tag'),
    objects: STUDY_OBJECTS,
    request: (_w, x) => post('tag/delete', { object: 'study', object_id: o(x).uuid, tag: 'matrix' }),
    phase: 'write',
  },
  [api('study/send/cancel')]: {
    rule: needs('study_share'),
    objects: MANAGED_OBJECTS,
    request: (_w, x) => post('study/send/cancel', { uuid: o(x).sendId! }),
    accepts: ['ALREADY_SENT'],
    phase: 'write',
  },

  // Studies, by storage path (namespace and Study Instance UID).
  'GET,POST /api/v3/storage/study/:storage_namespace/:study_uid/download': {
    rule: needs('study_download'),
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(`${storage(x)}/download`),
  },
  'GET /api/v3/storage/study/:storage_namespace/:study_uid/schema': {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(`${storage(x)}/schema`),
  },
  'GET /api/v3/storage/study/:storage_namespace/:study_uid/attachment/:id/version/:version/:filename?': {
    rule: view,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(`${storage(x)}/attachment/${o(x).attachmentId ?? MADE_UP}/version/1`),
    // The shared copy has no attachment of its own.
    accepts: ['NOT_FOUND:attachment'],
  },
  'POST /api/v3/storage/study/:storage_namespace/:study_uid/attachment': {
    rule: { kind: 'study', needs: ['study_edit'], groupFlag: true, deleted: 'refused' },
    objects: STUDY_OBJECTS,
    request: (_w, x) => {
      const body = new FormData();
      body.append('file', new Blob(['matrix'], { type: 'text/plain' }), 'matrix.txt');
      return { method: 'POST', url: `${storage(x)}/attachment`, body };
    },
    phase: 'write',
  },
  'DELETE /api/v3/storage/study/:storage_namespace/:study_uid/attachment/:id': {
    rule: { kind: 'study', needs: ['study_edit'], groupFlag: true, deleted: 'refused' },
    objects: STUDY_OBJECTS,
    request: (_w, x) => ({
      method: 'DELETE',
      url: `${storage(x)}/attachment/${o(x).attachmentId ?? MADE_UP}`,
    }),
    accepts: ['NOT_FOUND:attachment'],
    phase: 'write',
  },

  // DICOMweb, by Study Instance UID.
  'GET /dicomweb/studies': { rule: { kind: 'dicomwebSearch' }, request: () => get('/dicomweb/studies') },
  'GET /dicomweb/studies/:study/series': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(dicomweb(x, '/series')),
  },
  'GET /dicomweb/studies/:study/instances': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(dicomweb(x, '/instances')),
  },
  'GET /dicomweb/studies/:study/series/:series/instances': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(series(x, '/instances')),
  },
  'GET /dicomweb/studies/:study': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(dicomweb(x)),
  },
  'GET /dicomweb/studies/:study/series/:series': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(series(x)),
  },
  'GET /dicomweb/studies/:study/series/:series/instances/:instance': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(instance(x)),
  },
  'GET /dicomweb/studies/:study/metadata': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(dicomweb(x, '/metadata')),
  },
  'GET /dicomweb/studies/:study/series/:series/metadata': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(series(x, '/metadata')),
  },
  'GET /dicomweb/studies/:study/series/:series/instances/:instance/metadata': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(instance(x, '/metadata')),
  },
  'GET /dicomweb/studies/:study/series/:series/instances/:instance/frames/:frames': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(instance(x, '/frames/1')),
  },
  'GET /dicomweb/studies/:study/series/:series/instances/:instance/rendered': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(instance(x, '/rendered')),
  },
  'GET /dicomweb/studies/:study/series/:series/instances/:instance/frames/:frames/rendered': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(instance(x, '/frames/1/rendered')),
  },
  'GET /dicomweb/studies/:study/series/:series/instances/:instance/thumbnail': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(instance(x, '/thumbnail')),
  },
  'GET /dicomweb/studies/:study/series/:series/thumbnail': {
    rule: dicomwebRead,
    objects: STUDY_OBJECTS,
    request: (_w, x) => get(series(x, '/thumbnail')),
  },
};

interface Cell {
  route: string;
  principal: Principal;
  objectKey: ObjectKey | undefined;
}

async function answer(
  server: TestServer,
  world: World,
  cell: Cell,
  object: MatrixObject | undefined,
): Promise<Outcome> {
  const c = ROUTES[cell.route]!;
  const req = c.request(world, object);
  const headers: Record<string, string> = { ...credentials(world, cell.principal) };
  let url = `${server.url}${req.url}`;
  let body = req.body;
  if (req.params) {
    const form = new URLSearchParams(req.params);
    if (req.method === 'GET') url += `${url.includes('?') ? '&' : '?'}${form.toString()}`;
    else {
      body = form.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
  }
  if (req.contentType) headers['content-type'] = req.contentType;
  const response = await fetch(url, { method: req.method, headers, body });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // bytes (an archive, an image, multipart): a success
  }
  if (c.answerOf) parsed = c.answerOf(parsed);
  return outcomeOf(response.status, parsed, c.accepts);
}

function cellsOf(route: string): Cell[] {
  const c = ROUTES[route]!;
  return PRINCIPALS.flatMap((principal) =>
    (c.objects ?? [undefined]).map((objectKey) => ({ route, principal, objectKey })),
  );
}

describe.each(DIALECTS)('authorization matrix on %s', (dialect) => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    world = await buildWorld(server);
  }, 240_000); // the world takes some fifty calls: room for a loaded machine
  afterAll(() => server?.stop());

  it('has a row for every registered api/v3, DICOMweb and probe route, and no row for a route that is gone', () => {
    const registered = registeredRoutes(server.http)
      .filter((r) => r.url.startsWith('/api/v3/') || r.url.startsWith('/dicomweb/') || PROBES.includes(r.url))
      .map((r) => `${r.methods.join(',')} ${r.url}`);
    const missing = registered.filter((key) => !(key in ROUTES));
    expect(missing, 'routes registered without a row in ROUTES (add one, with its rule)').toEqual([]);
    expect(
      Object.keys(ROUTES).filter((key) => !registered.includes(key)),
      'rows of routes no longer registered',
    ).toEqual([]);
  });

  it('answers every caller and object as the access rules say', async () => {
    const mismatches: string[] = [];
    const run = async (cells: Cell[]) => {
      const BATCH = 24;
      for (let i = 0; i < cells.length; i += BATCH) {
        // Every principal asks from 127.0.0.1, and the made-up tokens of the public rows add up to
        // more guesses than one address may make (sign-in and link limits have their own tests).
        await server.ctx.db.kysely.deleteFrom('auth_failures').execute();
        await Promise.all(
          cells.slice(i, i + BATCH).map(async (cell) => {
            const object = cell.objectKey && world.objects[cell.objectKey];
            const want = expected(ROUTES[cell.route]!.rule, cell.principal, object);
            const got = await answer(server, world, cell, object);
            if (got !== want)
              mismatches.push(
                `${cell.route} | ${cell.principal} | ${object?.key ?? '-'}: expected ${want}, got ${got}`,
              );
          }),
        );
      }
    };
    /**
     * A write's permitted callers on one object, one after another: where two are let through
     * (Partner Clinic's two admins), the first one's delete leaves nothing for the next, whose
     * NOT_FOUND then says the object is gone, not that they were refused. The matrix's own
     * principals go first, so theirs is the answer checked in full.
     */
    const runPermittedInTurn = async (cells: Cell[]) => {
      const order = (p: Principal) => (p === 'outsideAdmin' || p === 'delegatedAdmin' ? 0 : 1);
      const byObject = new Map<string, Cell[]>();
      for (const cell of [...cells].sort((a, b) => order(a.principal) - order(b.principal))) {
        const key = cell.objectKey ?? '-';
        byObject.set(key, [...(byObject.get(key) ?? []), cell]);
      }
      await Promise.all(
        [...byObject.values()].map(async (inTurn) => {
          let done = false;
          for (const cell of inTurn) {
            const object = cell.objectKey && world.objects[cell.objectKey];
            const got = await answer(server, world, cell, object);
            if (got === 'OK') done = true;
            else if (!(done && got === 'NOT_FOUND'))
              mismatches.push(
                `${cell.route} | ${cell.principal} | ${object?.key ?? '-'}: expected OK, got ${got}`,
              );
          }
        }),
      );
    };
    const phase = (p: RouteCase['phase']) => Object.keys(ROUTES).filter((r) => ROUTES[r]!.phase === p);
    // Reads all at once; each write alone (its cells together), the objects put back after it.
    await run(phase(undefined).flatMap(cellsOf));
    // A write's refused callers go before its permitted ones: a permitted delete answered first
    // would leave a refused caller's cell NOT_FOUND instead of NOT_PERMITTED.
    const permitted = (cell: Cell) =>
      expected(ROUTES[cell.route]!.rule, cell.principal, cell.objectKey && world.objects[cell.objectKey]) ===
      'OK';
    for (const route of phase('write')) {
      const cells = cellsOf(route);
      await run(cells.filter((cell) => !permitted(cell)));
      await runPermittedInTurn(cells.filter(permitted));
      await resetObjects(server, world);
    }
    for (const route of phase('last')) await run(cellsOf(route));
    expect(mismatches.sort()).toEqual([]);
  }, 240_000); // a few thousand requests: generous when the whole suite shares the machine
});
