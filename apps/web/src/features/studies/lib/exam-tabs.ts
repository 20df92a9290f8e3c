import type { ReactNode } from 'react';
import type { PermissionFlags, Study, StudyPermission } from '@imaging-inbox/contract';
import type { InboxGroupType } from '../../../session/groups';

/** An action on a selection is allowed only if every selected study grants it. */
export function allGrant(studies: Study[], permission: StudyPermission): boolean {
  return studies.length > 0 && studies.every((s) => s.permissions[permission] === 1);
}

export const canDownload = (s: Study[]) => allGrant(s, 'study_download') && allGrant(s, 'study_download_iso');
export const canShare = (s: Study[]) =>
  allGrant(s, 'study_share') && (allGrant(s, 'study_share_user') || allGrant(s, 'study_share_group'));
export const canSend = (s: Study[]) =>
  allGrant(s, 'study_share') &&
  (allGrant(s, 'study_share_account') ||
    allGrant(s, 'study_share_email') ||
    allGrant(s, 'study_share_share_code'));

/** Where the details panel is open: the group, its active filter (study state) and the selection. */
export interface ExamTabContext {
  groupType: InboxGroupType;
  state: string;
  studies: Study[];
  /** The caller's flags on the account and on the study's group (order_view…), when known. */
  permissions?: Partial<PermissionFlags>;
}

/** What a tab's screen is given. `studies` holds one study, or several for a multi-selection. */
export interface ExamTabProps {
  studies: Study[];
  state: string;
  accountId: string;
  /** Studies that left the current list (deleted or restored). */
  onRemoved: (uuids: string[]) => void;
  /** Leave this tab for Summary (the viewer's close button). */
  onLeave: () => void;
}

/**
 * One exam-details tab. A tab is listed only with a screen to render, so a listed tab always shows
 * something; a tab whose feature has not landed yet has no entry at all.
 */
export interface ExamTabEntry {
  /** Stable id, used in element ids. */
  id: string;
  /** Shown on the tab, translated. */
  label: string;
  /** Group types whose studies have the tab. */
  groupTypes: readonly InboxGroupType[];
  /** Whether a study that came from a share has the tab. */
  fromShare: boolean;
  /** Whether a multi-selection has the tab (a bulk action on every selected study). */
  multiSelect: boolean;
  /** Further rules: permissions every selected study grants, the active filter. */
  when?: (ctx: ExamTabContext) => boolean;
  /** Opens first when this holds (the first such entry of the registry wins), else the first tab. */
  opensFirst?: (ctx: ExamTabContext) => boolean;
  render: (props: ExamTabProps) => ReactNode;
}

/**
 * The order of the strip where a group type differs from the registry's order (SPEC.md section 2:
 * gatekeeper groups show Summary, Exchange, Viewer, Download, Attachments, Process). Tabs not named
 * here follow in registry order.
 */
export const TAB_ORDER: Partial<Record<InboxGroupType, readonly string[]>> = {
  GATEKEEPER: ['summary', 'exchange', 'viewer', 'downloads', 'attachments'],
};

function ordered(entries: ExamTabEntry[], groupType: InboxGroupType): ExamTabEntry[] {
  const order = TAB_ORDER[groupType] ?? [];
  const rank = (e: ExamTabEntry) => {
    const i = order.indexOf(e.id);
    return i === -1 ? order.length : i;
  };
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry) - rank(b.entry) || a.index - b.index)
    .map((x) => x.entry);
}

/** Which tabs of `registry` show for `ctx`, in strip order, and which opens first. */
export function examTabs(
  ctx: ExamTabContext,
  registry: readonly ExamTabEntry[],
): { tabs: ExamTabEntry[]; defaultTab: ExamTabEntry | null } {
  const multi = ctx.studies.length > 1;
  const fromShare = ctx.studies.some((s) => s.source === 'share');
  const shown = registry.filter(
    (e) =>
      e.groupTypes.includes(ctx.groupType) &&
      (!multi || e.multiSelect) &&
      (!fromShare || e.fromShare) &&
      (e.when?.(ctx) ?? true),
  );
  const tabs = ordered(shown, ctx.groupType);
  const defaultTab = shown.find((e) => e.opensFirst?.(ctx)) ?? tabs[0] ?? null;
  return { tabs, defaultTab };
}
