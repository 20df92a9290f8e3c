import type { z } from 'zod';
import type { AccountInvitation, AccountUser, AccountUserPage } from './account-users.js';
import {
  accountInvitationRequest,
  accountUserAddRequest,
  accountUserListRequest,
  accountUserRequest,
  accountUserSetRequest,
  userEnableRequest,
} from './account-users.js';
import type { NamespaceSettingsAnswer } from './account-requests.js';
import {
  accountListRequest,
  accountSetRequest,
  dicomNodeListRequest,
  engineFqdnRequest,
  groupListRequest,
  loginRequest,
  namespaceListRequest,
  namespaceSettingsRequest,
  passwordChangeRequest,
  passwordLostRequest,
  passwordResetRequest,
  sessionPermissionsRequest,
  settingGetRequest,
  settingSetRequest,
  shareCodeRequest,
  userEventRequest,
  userEventSetRequest,
  userSetRequest,
  uuidRequest,
} from './account-requests.js';
import {
  auditLogRequest,
  routeAddRequest,
  routeListRequest,
  routeSetRequest,
  studyManualRouteRequest,
  webhookAddRequest,
  webhookDeliveryListRequest,
  webhookListRequest,
  webhookSetRequest,
} from './admin-requests.js';
import type { AnswerPage } from './api-params.js';
import { noParams, pageRequest } from './api-params.js';
import type { AttachmentListAnswer, AttachmentUploadAnswer } from './attachments.js';
import type { AuditLogEntry } from './audit-log.js';
import {
  auditAccountRequest,
  auditFailedLoginsRequest,
  auditUserRequest,
  roleDefaultPermissionsRequest,
} from './audit-requests.js';
import type { CustomField, CustomFieldListAnswer } from './custom-fields.js';
import { customFieldAddRequest, customFieldDeleteRequest, customFieldSetRequest } from './custom-fields.js';
import type { DicomNode, GroupScannerValidateAnswer } from './dicom-nodes.js';
import { dicomNodeAddRequest, dicomNodeSetRequest, groupScannerValidateRequest } from './dicom-nodes.js';
import {
  destinationAddRequest,
  destinationListRequest,
  destinationRetrieveRequest,
  destinationSearchMwlRequest,
  destinationSearchRequest,
  destinationSetRequest,
  studyPushRequest,
} from './destination-requests.js';
import type {
  Destination,
  DestinationRetrieve,
  DestinationSearch,
  DestinationWorklistSearch,
  EchoResult,
  StudyPushAttempt,
  StudyPushListAnswer,
} from './destinations.js';
import { storageDownloadRequest, studyDownloadRequest } from './download-requests.js';
import type { GroupWorkflowConfig, Nomination, NominationAnswer, StudyProcessAnswer } from './gatekeeper.js';
import {
  groupConfigSetRequest,
  studyApproveRequest,
  studyNominateRequest,
  studyNominationRequest,
  studyProcessRequest,
  studyRejectRequest,
} from './gatekeeper.js';
import type { AdminGroup, AdminGroupListAnswer, GroupMember, GroupMemberListAnswer } from './group-admin.js';
import {
  accountGroupListRequest,
  groupAddRequest,
  groupSetRequest,
  groupUserAddRequest,
  groupUserDeleteRequest,
  groupUserListRequest,
} from './group-admin.js';
import type { ShareableGroup, ShareableUser } from './history.js';
import type { Hl7Sender } from './hl7-senders.js';
import type { AnonymizationProfile } from './anonymization.js';
import {
  anonymizationAddRequest,
  anonymizationListRequest,
  anonymizationSetRequest,
} from './anonymization.js';
import { hl7SenderAddRequest, hl7SenderListRequest, hl7SenderSetRequest } from './hl7-senders.js';
import type { LabelListAnswer } from './labels.js';
import { labelDeleteRequest, labelListRequest, labelSetRequest } from './label-requests.js';
import {
  linkAddRequest,
  linkListRequest,
  linkTokenRequest,
  linkUnlockRequest,
  sendGrantRequest,
  sendVerifyRequest,
} from './link-requests.js';
import type { LinkAddAnswer, LinkInfoAnswer, LinkListAnswer, LinkUnlockAnswer } from './links.js';
import type { NotificationPreference, NotificationPreferenceListAnswer } from './notifications.js';
import type { OrderListAnswer, OrderSearchAnswer } from './orders.js';
import {
  orderAddRequest,
  orderListRequest,
  orderSearchRequest,
  studyPatientSearchRequest,
} from './orders.js';
import type { UserProfile } from './profile.js';
import type { StudyReportAddAnswer, StudyReportListAnswer } from './reports.js';
import { studyReportAddRequest, studyReportListRequest } from './reports.js';
import type { Role, RoleListAnswer } from './roles.js';
import { roleAddRequest, roleListRequest, roleRequest, roleSetRequest } from './roles.js';
import type { RoutingRule } from './routing.js';
import type {
  ConnectionListAnswer,
  SendLinkInfoAnswer,
  SendLinkStudyAnswer,
  SendLinkVerifyAnswer,
  SendListAnswer,
  ShareCodeAnswer,
} from './sends.js';
import {
  connectionListRequest,
  studyShareRequest,
  studyShareStopRequest,
  studyShareWhoRequest,
} from './share-requests.js';
import type {
  AccountAnswer,
  AccountListAnswer,
  GroupListAnswer,
  GroupSummary,
  LoginAnswer,
  NamespaceListAnswer,
  PermissionsAnswer,
  SessionUser,
  TtlAnswer,
} from './session.js';
import type {
  ImageUploadAnswer,
  StudyAddAnswer,
  StudyCountAnswer,
  StudyListAnswer,
  StudySchemaAnswer,
  StudySyncAnswer,
} from './studies.js';
import type { StudyThumbnailsAnswer } from './thumbnails.js';
import {
  attachmentListRequest,
  auditObjectRequest,
  customFieldListRequest,
  namedStudyRequest,
  studyExistsRequest,
  studyItemListRequest,
  studyRefRequest,
  studySetRequest,
  studyStarRequest,
  studyTimingEventRequest,
  studyUuidRequest,
  tagChangeRequest,
  tagListRequest,
  viewerTokenRequest,
} from './study-requests.js';
import type { AuditObjectAnswer, ShareListAnswer, TagListAnswer } from './history.js';
import { studySearchRequest } from './study-search.js';
import type { ShareCodeSettingsAnswer, WrapUploadAnswer } from './upload-form.js';
import {
  studyAddRequest,
  studySyncRequest,
  uploadSessionChunkRequest,
  uploadSessionCompleteRequest,
  uploadSessionCreateRequest,
  uploadSessionStatusRequest,
} from './upload-requests.js';
import type {
  RecoveryCodesAnswer,
  TotpEnrolmentAnswer,
  TotpResetAnswer,
  TotpStatusAnswer,
} from './two-factor.js';
import { accountTwoFactorSetRequest, totpConfirmRequest, totpDisableRequest } from './two-factor.js';
import type { AccountSsoAnswer, SsoLookupAnswer } from './sso.js';
import {
  accountSsoGetRequest,
  accountSsoSetRequest,
  ssoCallbackRequest,
  samlAcsRequest,
  samlMetadataRequest,
  ssoLookupRequest,
  ssoStartRequest,
} from './sso.js';
import type { UploadSessionAnswer } from './upload-sessions.js';
import type { ViewerTokenAnswer } from './viewer.js';
import type { Webhook, WebhookDelivery } from './webhooks.js';

/**
 * Every api/v3 call, by the path after `/api/v3/`: its request schema (the zod the server parses
 * the parameters with; `null` where the call reads a body or path parameters instead) and the
 * type of its answer. The server registers only paths named here (`http/api.ts` is typed by it, and
 * a test compares this map with the routes the server registers); the web calls through one client
 * typed by it (`apps/web/src/lib/api-client.ts`, `api.call('study/list', params)`).
 */

/** The HTTP methods of a call; api/v3 calls answer GET and POST (decision 0010) unless stated. */
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiCallSpec<S extends z.ZodType | null, A> {
  readonly request: S;
  readonly methods: readonly ApiMethod[];
  /** Type only (never set): the answer's shape. */
  readonly answer: A;
}

/** The answer of a call whose fields no client reads yet: `status` and whatever the server adds. */
export interface ApiUntypedAnswer {
  status: 'OK';
  [field: string]: unknown;
}

/** The answer of a call a browser navigates to: a redirect (303), or an error page's redirect. */
export interface ApiRedirectAnswer {
  readonly redirect: true;
}

/** The answer of a call that streams a file (a download, an attachment's bytes, a CSV). */
export interface ApiFileAnswer {
  readonly file: true;
}

const GET_POST: readonly ApiMethod[] = ['GET', 'POST'];

/** A call on GET and POST with `request` as its schema and `A` as its answer. */
function call<A = ApiUntypedAnswer>() {
  return <S extends z.ZodType | null>(request: S, methods: readonly ApiMethod[] = GET_POST) =>
    ({ request, methods }) as ApiCallSpec<S, A>;
}

type Ok<T = object> = { status: 'OK' } & T;

export const API_CALLS = {
  // Public calls and the bundle.
  health: call<Ok>()(null, ['GET']),
  bundle: call<unknown[]>()(null, ['POST']),
  'session/login': call<LoginAnswer>()(loginRequest),
  'session/sso/lookup': call<SsoLookupAnswer>()(ssoLookupRequest),
  // Browser navigations: each answers a redirect (to the provider, then into the app).
  'session/sso/start': call<ApiRedirectAnswer>()(ssoStartRequest),
  'session/sso/callback': call<ApiRedirectAnswer>()(ssoCallbackRequest),
  /** A SAML identity provider's HTTP-POST of its response; on to session/sso/callback in the same browser. */
  'session/sso/saml/acs': call<ApiRedirectAnswer>()(samlAcsRequest),
  /** The SAML service provider's metadata of one account (XML), for the identity provider's admin. */
  'session/sso/saml/metadata': call<ApiFileAnswer>()(samlMetadataRequest),
  'user/password/lost': call<Ok>()(passwordLostRequest),
  'user/password/reset': call<Ok>()(passwordResetRequest),
  'link/public/info': call<LinkInfoAnswer>()(linkTokenRequest),
  'link/public/unlock': call<LinkUnlockAnswer>()(linkUnlockRequest),
  'link/public/upload': call<ImageUploadAnswer>()(null, ['POST']),
  'link/public/wrap': call<WrapUploadAnswer>()(null, ['POST']),
  'link/public/upload/session/create': call<UploadSessionAnswer>()(uploadSessionCreateRequest),
  'link/public/upload/session/status': call<UploadSessionAnswer>()(uploadSessionStatusRequest),
  'link/public/upload/session/chunk': call<UploadSessionAnswer>()(uploadSessionChunkRequest, ['PUT', 'POST']),
  'link/public/upload/session/complete': call<ImageUploadAnswer>()(uploadSessionCompleteRequest),
  'send/public/info': call<SendLinkInfoAnswer>()(linkTokenRequest),
  'send/public/code': call<Ok>()(linkTokenRequest),
  'send/public/verify': call<SendLinkVerifyAnswer>()(sendVerifyRequest),
  'send/public/study': call<SendLinkStudyAnswer>()(sendGrantRequest),
  'send/public/download': call<ApiFileAnswer>()(sendGrantRequest),

  // The signed-in user.
  'session/user': call<SessionUser>()(noParams),
  'session/ttl': call<TtlAnswer>()(noParams),
  /** `logout_url`: the provider's end-session page, when the session came from one that offers it. */
  'session/logout': call<Ok<{ logout_url?: string }>>()(noParams),
  'session/permissions': call<PermissionsAnswer>()(sessionPermissionsRequest),
  'user/get': call<UserProfile>()(noParams),
  'user/set': call<UserProfile>()(userSetRequest),
  'user/password/change': call<Ok>()(passwordChangeRequest),
  'user/namespace/list': call<NamespaceListAnswer>()(namespaceListRequest),
  'user/event': call()(userEventRequest),
  'user/event/list': call<NotificationPreferenceListAnswer>()(pageRequest),
  'user/event/set': call<Ok<NotificationPreference>>()(userEventSetRequest),
  'user/totp/get': call<TotpStatusAnswer>()(noParams),
  'user/totp/enrol': call<TotpEnrolmentAnswer>()(noParams),
  'user/totp/confirm': call<RecoveryCodesAnswer>()(totpConfirmRequest),
  'user/totp/disable': call<Ok>()(totpDisableRequest),
  'setting/get': call<Ok<{ value: string | null }>>()(settingGetRequest),
  'setting/get/all': call()(noParams),
  'setting/set': call<Ok>()(settingSetRequest),

  // Accounts and their administration.
  'account/list': call<AccountListAnswer>()(accountListRequest),
  'account/get': call<AccountAnswer>()(uuidRequest),
  'account/set': call<Ok>()(accountSetRequest),
  'account/two_factor/set': call<Ok>()(accountTwoFactorSetRequest),
  'account/sso/get': call<AccountSsoAnswer>()(accountSsoGetRequest),
  'account/sso/set': call<AccountSsoAnswer>()(accountSsoSetRequest),
  'account/invitation/list': call<Ok<{ invitations: AccountInvitation[]; page: AnswerPage }>>()(pageRequest),
  'account/invitation/accept': call<Ok>()(accountInvitationRequest),
  'account/invitation/decline': call<Ok>()(accountInvitationRequest),
  'account/user/list': call<AccountUserPage>()(accountUserListRequest),
  'account/user/get': call<Ok<AccountUser>>()(accountUserRequest),
  'account/user/add': call<Ok<AccountUser>>()(accountUserAddRequest),
  'account/user/set': call<Ok<AccountUser>>()(accountUserSetRequest),
  'account/user/delete': call<Ok>()(accountUserRequest),
  'account/user/totp/reset': call<TotpResetAnswer>()(accountUserRequest),
  'user/enable': call<Ok>()(userEnableRequest),
  'account/group/list': call<AdminGroupListAnswer>()(accountGroupListRequest),
  'group/list': call<GroupListAnswer>()(groupListRequest),
  'group/get': call<Ok<Omit<GroupSummary, 'type'> & GroupWorkflowConfig>>()(uuidRequest),
  'group/add': call<Ok<AdminGroup>>()(groupAddRequest),
  'group/set': call<Ok<AdminGroup>>()(groupSetRequest),
  'group/delete': call<Ok>()(uuidRequest),
  'group/config/set': call<Ok>()(groupConfigSetRequest),
  'group/user/list': call<GroupMemberListAnswer>()(groupUserListRequest),
  'group/user/add': call<Ok<GroupMember>>()(groupUserAddRequest),
  'group/user/delete': call<Ok>()(groupUserDeleteRequest),
  'group/scanner/validate': call<GroupScannerValidateAnswer>()(groupScannerValidateRequest),
  'role/list': call<RoleListAnswer>()(roleListRequest),
  'role/get': call<Ok<Role>>()(roleRequest),
  'role/add': call<Ok<Role>>()(roleAddRequest),
  'role/set': call<Ok<Role>>()(roleSetRequest),
  'role/delete': call<Ok>()(roleRequest),
  'role/default/permissions': call()(roleDefaultPermissionsRequest),
  'customfield/list': call<CustomFieldListAnswer>()(customFieldListRequest),
  'customfield/add': call<Ok<CustomField>>()(customFieldAddRequest),
  'customfield/set': call<Ok<CustomField>>()(customFieldSetRequest),
  'customfield/delete': call<Ok>()(customFieldDeleteRequest),
  'label/list': call<LabelListAnswer>()(labelListRequest),
  'label/set': call<Ok>()(labelSetRequest),
  'label/delete': call<Ok>()(labelDeleteRequest),
  'namespace/settings': call<NamespaceSettingsAnswer>()(namespaceSettingsRequest),
  'namespace/share_code': call<ShareCodeAnswer | ShareCodeSettingsAnswer>()(shareCodeRequest),
  'namespace/engine/fqdn': call()(engineFqdnRequest),
  'audit/log': call<Ok<{ events: AuditLogEntry[]; page: AnswerPage }>>()(auditLogRequest),
  'audit/object': call<AuditObjectAnswer>()(auditObjectRequest),
  'audit/account': call()(auditAccountRequest),
  'audit/user': call()(auditUserRequest),
  'audit/failedlogins': call()(auditFailedLoginsRequest),
  'dicom/node/list': call<Ok<{ nodes: DicomNode[]; page: AnswerPage }>>()(dicomNodeListRequest),
  'dicom/node/add': call<Ok<DicomNode>>()(dicomNodeAddRequest),
  'dicom/node/set': call<Ok<DicomNode>>()(dicomNodeSetRequest),
  'dicom/node/delete': call<Ok>()(uuidRequest),
  'hl7/sender/list': call<Ok<{ senders: Hl7Sender[]; page: AnswerPage }>>()(hl7SenderListRequest),
  'hl7/sender/add': call<Ok<Hl7Sender>>()(hl7SenderAddRequest),
  'hl7/sender/set': call<Ok<Hl7Sender>>()(hl7SenderSetRequest),
  'hl7/sender/delete': call<Ok>()(uuidRequest),
  // De-identification profiles (decision 0067).
  'anonymization/list':
    call<Ok<{ profiles: AnonymizationProfile[]; page: AnswerPage }>>()(anonymizationListRequest),
  'anonymization/get': call<Ok<AnonymizationProfile>>()(uuidRequest),
  'anonymization/add': call<Ok<AnonymizationProfile>>()(anonymizationAddRequest),
  'anonymization/set': call<Ok<AnonymizationProfile>>()(anonymizationSetRequest),
  'anonymization/delete': call<Ok>()(uuidRequest),

  // PACS destinations, searches, pushes and retrieves.
  'destination/list': call<Ok<{ destinations: Destination[]; page: AnswerPage }>>()(destinationListRequest),
  'destination/get': call<Ok<Destination>>()(uuidRequest),
  'destination/add': call<Ok<Destination>>()(destinationAddRequest),
  'destination/set': call<Ok<Destination>>()(destinationSetRequest),
  'destination/delete': call<Ok>()(uuidRequest),
  'destination/echo': call<Ok<EchoResult>>()(uuidRequest),
  'destination/search': call<Ok<{ uuid: string }>>()(destinationSearchRequest),
  'destination/search/mwl': call<Ok<{ uuid: string }>>()(destinationSearchMwlRequest),
  'destination/search/get': call<Ok<DestinationSearch | DestinationWorklistSearch>>()(uuidRequest),
  'destination/retrieve': call<Ok<DestinationRetrieve> | Ok<{ retrieves: DestinationRetrieve[] }>>()(
    destinationRetrieveRequest,
  ),
  'study/push': call<Ok<{ push: StudyPushAttempt }>>()(studyPushRequest),
  'study/push/list': call<StudyPushListAnswer>()(studyItemListRequest),

  // Routing rules and webhooks.
  'route/list': call<Ok<{ routes: RoutingRule[]; page: AnswerPage }>>()(routeListRequest),
  'route/get': call<Ok<{ route: RoutingRule }>>()(uuidRequest),
  'route/add': call<Ok<{ route: RoutingRule }>>()(routeAddRequest),
  'route/set': call<Ok<{ route: RoutingRule }>>()(routeSetRequest),
  'route/delete': call<Ok>()(uuidRequest),
  'study/manual/route': call()(studyManualRouteRequest),
  'webhook/list': call<Ok<{ webhooks: Webhook[]; page: AnswerPage }>>()(webhookListRequest),
  'webhook/get': call<Ok<{ webhook: Webhook }>>()(uuidRequest),
  'webhook/add': call<Ok<{ webhook: Webhook }>>()(webhookAddRequest),
  'webhook/set': call<Ok<{ webhook: Webhook }>>()(webhookSetRequest),
  'webhook/delete': call<Ok>()(uuidRequest),
  'webhook/event': call()(noParams),
  'webhook/delivery/list':
    call<Ok<{ deliveries: WebhookDelivery[]; page: AnswerPage }>>()(webhookDeliveryListRequest),

  // Studies.
  'study/list': call<StudyListAnswer>()(studySearchRequest),
  'study/count': call<StudyCountAnswer>()(studySearchRequest),
  'study/get': call()(namedStudyRequest),
  'study/permissions': call()(studyUuidRequest),
  'study/exists': call<Ok<{ exists: 0 | 1 }>>()(studyExistsRequest),
  'study/set': call<Ok>()(studySetRequest),
  'study/lock': call<Ok>()(studyUuidRequest),
  'study/unlock': call<Ok>()(studyUuidRequest),
  'study/lock/break': call<Ok>()(studyUuidRequest),
  'study/add': call<StudyAddAnswer>()(studyAddRequest),
  'study/sync': call<StudySyncAnswer>()(studySyncRequest),
  'study/timing/event': call()(studyTimingEventRequest),
  'study/star': call<Ok>()(studyStarRequest),
  'tag/add': call<Ok>()(tagChangeRequest),
  'tag/delete': call<Ok>()(tagChangeRequest),
  'tag/list': call<TagListAnswer>()(tagListRequest),
  'study/delete': call<Ok>()(studyRefRequest),
  'study/restore': call<Ok>()(studyRefRequest),
  'study/thumbnails': call<StudyThumbnailsAnswer>()(studyUuidRequest),
  'study/viewer/token': call<ViewerTokenAnswer>()(viewerTokenRequest),
  'study/attachment/list': call<AttachmentListAnswer>()(attachmentListRequest),
  'study/download': call<ApiFileAnswer>()(studyDownloadRequest),
  'storage/study/:storage_namespace/:study_uid/download': call<ApiFileAnswer>()(storageDownloadRequest),
  'storage/study/:storage_namespace/:study_uid/schema': call<StudySchemaAnswer>()(null, ['GET']),
  'storage/study/:storage_namespace/:study_uid/attachment': call<AttachmentUploadAnswer>()(null, ['POST']),
  'storage/study/:storage_namespace/:study_uid/attachment/:id': call<Ok>()(null, ['DELETE']),
  'storage/study/:storage_namespace/:study_uid/attachment/:id/version/:version/:filename?':
    call<ApiFileAnswer>()(null, ['GET']),
  'storage/namespace/:namespace_id/image': call<ImageUploadAnswer>()(null, ['POST']),
  'storage/namespace/:namespace_id/wrap': call<WrapUploadAnswer>()(null, ['POST']),
  'upload/session/create': call<UploadSessionAnswer>()(uploadSessionCreateRequest),
  'upload/session/status': call<UploadSessionAnswer>()(uploadSessionStatusRequest),
  'upload/session/chunk': call<UploadSessionAnswer>()(uploadSessionChunkRequest, ['PUT', 'POST']),
  'upload/session/complete': call<ImageUploadAnswer>()(uploadSessionCompleteRequest),

  // Sharing and sending.
  'study/share': call()(studyShareRequest),
  'study/share/who': call<Ok<{ users?: ShareableUser[]; groups?: ShareableGroup[] }>>()(studyShareWhoRequest),
  'study/share/list': call<ShareListAnswer>()(studyItemListRequest),
  'study/share/stop': call<Ok>()(studyShareStopRequest),
  'study/send/list': call<SendListAnswer>()(studyItemListRequest),
  'study/send/cancel': call<Ok>()(studyUuidRequest),
  'connection/list': call<ConnectionListAnswer>()(connectionListRequest),
  'link/add': call<LinkAddAnswer>()(linkAddRequest),
  'link/list': call<LinkListAnswer>()(linkListRequest),
  'link/delete': call<Ok>()(uuidRequest),

  // The gatekeeper: nominations, orders, reports.
  'study/nominate': call<Ok<{ nomination: Nomination }>>()(studyNominateRequest),
  'study/nominate/cancel': call<Ok>()(studyUuidRequest),
  'study/nomination': call<NominationAnswer>()(studyNominationRequest),
  'study/reject': call<Ok<{ nomination: Nomination }>>()(studyRejectRequest),
  'study/approve': call()(studyApproveRequest),
  'study/process': call<StudyProcessAnswer>()(studyProcessRequest),
  'study/patient/search': call<Ok<{ uuid: string }>>()(studyPatientSearchRequest),
  'order/list': call<OrderListAnswer>()(orderListRequest),
  'order/search': call<OrderSearchAnswer>()(orderSearchRequest),
  'order/add': call()(orderAddRequest),
  'study/report/list': call<StudyReportListAnswer>()(studyReportListRequest),
  'study/report/add': call<StudyReportAddAnswer>()(studyReportAddRequest),
} as const satisfies Record<string, ApiCallSpec<z.ZodType | null, unknown>>;

export type ApiCalls = typeof API_CALLS;
/** A path after `/api/v3/` that the server registers. */
export type ApiPath = keyof ApiCalls;
/** The request schema of a call (`null` for calls that read a body or path parameters). */
export type ApiRequestSchema<P extends ApiPath> = ApiCalls[P]['request'];
/** What a call answers. */
export type ApiAnswer<P extends ApiPath> = ApiCalls[P]['answer'];

/** A parameter's value as a client sends it (every value travels as text). */
export type ApiParamValue = string | number | boolean | null | undefined;

type WireOf<I> = I extends object ? { [K in keyof I]?: ApiParamValue } : Record<string, never>;
/** A list's `filter.<field>.<condition>` parameters (read by the server's list-filter parser). */
type ListFilterParams = { [filter: `filter.${string}`]: ApiParamValue };

/** The parameters a client sends to call `P`, by the names its request schema reads. */
export type ApiParams<P extends ApiPath> =
  ApiRequestSchema<P> extends z.ZodType
    ? WireOf<z.input<ApiRequestSchema<P>>> & ListFilterParams
    : Record<string, ApiParamValue>;

/** `:name` segments of a path (`storage/namespace/:namespace_id/image` → `namespace_id`). */
export type ApiPathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name | keyof ApiPathParams<Rest>]: string }
  : P extends `${string}:${infer Name}?`
    ? { [K in Name]?: string }
    : P extends `${string}:${infer Name}`
      ? { [K in Name]: string }
      : Record<never, string>;
