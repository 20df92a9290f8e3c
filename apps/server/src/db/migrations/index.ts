import type { Migration } from 'kysely';
import { identity } from './20261122T1300-identity.js';
import { sessions } from './20261122T1301-sessions.js';
import { settings } from './20261122T1302-settings.js';
import { studies } from './20261122T1303-studies.js';
import { audit } from './20261122T1304-audit.js';
import { outboxAndJobs } from './20261122T1305-outbox-jobs.js';
import { searchIndexes } from './20261122T1400-search-indexes.js';
import { dicomNodes } from './20261122T1410-dicom-nodes.js';
import { modalityBits } from './20261122T1420-modality-bits.js';
import { modalityBitsBackfill } from './20261122T1421-modality-bits-backfill.js';
import { trashPurgeIndexes } from './20261122T1500-trash-purge-indexes.js';
import { studyShares } from './20261122T1510-study-shares.js';
import { links } from './20261122T1520-links.js';
import { personalNamespaces } from './20261122T1640-personal-namespaces.js';
import { uploadSessions } from './20261122T1630-upload-sessions.js';
import { viewerTokens } from './20261122T1650-viewer-tokens.js';
import { userEvents } from './20261122T1660-user-events.js';
import { harvestNotices } from './20261122T1661-harvest-notices.js';
import { attachments } from './20261122T1662-attachments.js';
import { namespaceShareCodes } from './20261122T2245-namespace-share-codes.js';
import { connections } from './20261122T2246-connections.js';
import { studySends } from './20261122T2247-study-sends.js';
import { customFields } from './20261123T0100-custom-fields.js';
import { outboxDelivery } from './20261123T0120-outbox-delivery.js';
import { userMobilePhone } from './20261123T0130-user-mobile-phone.js';
import { instancesCreatedIndex } from './20261123T0131-instances-created-index.js';
import { uploadSessionClaims } from './20261124T0400-upload-session-claims.js';
import { uploadSessionHead } from './20261124T0401-upload-session-head.js';
import { destinations } from './20261124T1100-destinations.js';
import { dicomNodeDestination } from './20261124T1101-dicom-node-destination.js';
import { jobConcurrencyKeys } from './20261124T1130-job-concurrency-keys.js';
import { studyLockSince } from './20261124T1200-study-lock-since.js';
import { blobRemovals } from './20261124T1205-blob-removals.js';
import { destinationSearches } from './20261124T1210-destination-searches.js';
import { destinationRetrieves } from './20261124T1211-destination-retrieves.js';
import { studyPushes } from './20261124T1220-study-pushes.js';
import { groupConfigs } from './20261124T1300-group-configs.js';
import { nominations } from './20261124T1301-nominations.js';
import { nominationProcess } from './20261127T2020-nomination-process.js';
import { userEventNominate } from './20261127T2021-user-event-nominate.js';
import { localAeTitles } from './20261127T2022-local-ae-titles.js';
import { orders } from './20261127T2030-orders.js';
import { hl7Results } from './20261127T2031-hl7-results.js';
import { roles } from './20261127T2040-roles.js';
import { membershipRoles } from './20261127T2041-membership-roles.js';
import { routingRules } from './20261127T2050-routing-rules.js';
import { webhooks } from './20261127T2051-webhooks.js';
import { auditAccountIndex } from './20261127T2052-audit-account-index.js';
import { listedCountIndex } from './20261127T2070-listed-count-index.js';
import { userLanguage } from './20261128T0100-user-language.js';
import { labelOverrides } from './20261128T0101-label-overrides.js';
import { searchCoveringIndexes } from './20261128T0120-search-covering-indexes.js';
import { linkRequestContact } from './20261128T0140-link-request-contact.js';
import { studyCounts } from './20261129T0100-study-counts.js';
import { studyCountsCalendarMonths } from './20261129T0101-study-counts-calendar-months.js';
import { studyCountsCovering } from './20261130T0100-study-counts-covering.js';
import { shareCodeRegistry } from './20261202T0100-share-code-registry.js';
import { personHomeAccount } from './20261202T0130-person-home-account.js';
import { membershipInvitedSuspended } from './20261202T0131-membership-invited-suspended.js';
import { hl7Senders } from './20261202T0150-hl7-senders.js';
import { anonymizationProfiles } from './20261202T1200-anonymization-profiles.js';
import { anonymizationGroups } from './20261202T1240-anonymization-groups.js';
import { pushDeidentification } from './20261202T1500-push-deidentification.js';
import { linkDeidentification } from './20261202T1600-link-deidentification.js';
import { studyCountTotals } from './20261203T0700-study-count-totals.js';
import { studyRecentWindow } from './20261203T0800-study-recent-window.js';
import { studyNamePrefixIndex } from './20261203T0900-study-name-prefix-index.js';
import { jobLeaseHolder } from './20261202T0210-job-lease-holder.js';
import { callingAeTitles } from './20261202T0230-calling-ae-titles.js';
import { destinationSharedTarget } from './20261202T0231-destination-shared-target.js';
import { destinationWorklistSearches } from './20261202T0400-destination-worklist-searches.js';
import { dicomNodeQueryRetrieve } from './20261202T0705-dicom-node-query-retrieve.js';
import { destinationTls } from './20261202T1215-destination-tls.js';
import { storageCommitment } from './20261202T1210-storage-commitment.js';
import { twoFactor } from './20261202T0700-two-factor.js';
import { atnaOutbox } from './20261202T1320-atna-outbox.js';
import { accountSso } from './20261202T1300-account-sso.js';
import { ssoSaml } from './20261202T1610-sso-saml.js';

/** Every migration, keyed by its timestamped name; Kysely runs them in name order, once each. */
export const migrations: Record<string, Migration> = {
  '20261122T1300-identity': identity,
  '20261122T1301-sessions': sessions,
  '20261122T1302-settings': settings,
  '20261122T1303-studies': studies,
  '20261122T1304-audit': audit,
  '20261122T1305-outbox-jobs': outboxAndJobs,
  '20261122T1400-search-indexes': searchIndexes,
  '20261122T1410-dicom-nodes': dicomNodes,
  '20261122T1420-modality-bits': modalityBits,
  '20261122T1421-modality-bits-backfill': modalityBitsBackfill,
  '20261122T1500-trash-purge-indexes': trashPurgeIndexes,
  '20261122T1510-study-shares': studyShares,
  '20261122T1520-links': links,
  '20261122T1630-upload-sessions': uploadSessions,
  '20261122T1640-personal-namespaces': personalNamespaces,
  '20261122T1650-viewer-tokens': viewerTokens,
  '20261122T1660-user-events': userEvents,
  '20261122T1661-harvest-notices': harvestNotices,
  '20261122T1662-attachments': attachments,
  '20261122T2245-namespace-share-codes': namespaceShareCodes,
  '20261122T2246-connections': connections,
  '20261122T2247-study-sends': studySends,
  '20261123T0100-custom-fields': customFields,
  '20261123T0120-outbox-delivery': outboxDelivery,
  '20261123T0130-user-mobile-phone': userMobilePhone,
  '20261123T0131-instances-created-index': instancesCreatedIndex,
  '20261124T0400-upload-session-claims': uploadSessionClaims,
  '20261124T0401-upload-session-head': uploadSessionHead,
  '20261124T1100-destinations': destinations,
  '20261124T1101-dicom-node-destination': dicomNodeDestination,
  '20261124T1130-job-concurrency-keys': jobConcurrencyKeys,
  '20261124T1200-study-lock-since': studyLockSince,
  '20261124T1205-blob-removals': blobRemovals,
  '20261124T1210-destination-searches': destinationSearches,
  '20261124T1211-destination-retrieves': destinationRetrieves,
  '20261124T1220-study-pushes': studyPushes,
  '20261124T1300-group-configs': groupConfigs,
  '20261124T1301-nominations': nominations,
  '20261127T2020-nomination-process': nominationProcess,
  '20261127T2021-user-event-nominate': userEventNominate,
  '20261127T2022-local-ae-titles': localAeTitles,
  '20261127T2030-orders': orders,
  '20261127T2031-hl7-results': hl7Results,
  '20261127T2040-roles': roles,
  '20261127T2041-membership-roles': membershipRoles,
  '20261127T2050-routing-rules': routingRules,
  '20261127T2051-webhooks': webhooks,
  '20261127T2052-audit-account-index': auditAccountIndex,
  '20261127T2070-listed-count-index': listedCountIndex,
  '20261128T0100-user-language': userLanguage,
  '20261128T0101-label-overrides': labelOverrides,
  '20261128T0120-search-covering-indexes': searchCoveringIndexes,
  '20261128T0140-link-request-contact': linkRequestContact,
  '20261129T0100-study-counts': studyCounts,
  '20261129T0101-study-counts-calendar-months': studyCountsCalendarMonths,
  '20261130T0100-study-counts-covering': studyCountsCovering,
  '20261202T0100-share-code-registry': shareCodeRegistry,
  '20261202T0130-person-home-account': personHomeAccount,
  '20261202T0131-membership-invited-suspended': membershipInvitedSuspended,
  '20261202T0150-hl7-senders': hl7Senders,
  '20261202T0210-job-lease-holder': jobLeaseHolder,
  '20261202T0230-calling-ae-titles': callingAeTitles,
  '20261202T0231-destination-shared-target': destinationSharedTarget,
  '20261202T0400-destination-worklist-searches': destinationWorklistSearches,
  '20261202T0705-dicom-node-query-retrieve': dicomNodeQueryRetrieve,
  '20261202T1215-destination-tls': destinationTls,
  '20261202T0700-two-factor': twoFactor,
  '20261202T1320-atna-outbox': atnaOutbox,
  '20261202T1300-account-sso': accountSso,
  '20261202T1610-sso-saml': ssoSaml,
  '20261202T1210-storage-commitment': storageCommitment,
  '20261202T1200-anonymization-profiles': anonymizationProfiles,
  '20261202T1240-anonymization-groups': anonymizationGroups,
  '20261202T1500-push-deidentification': pushDeidentification,
  '20261202T1600-link-deidentification': linkDeidentification,
  '20261203T0700-study-count-totals': studyCountTotals,
  '20261203T0800-study-recent-window': studyRecentWindow,
  '20261203T0900-study-name-prefix-index': studyNamePrefixIndex,
};
