import type { Permission } from '@imaging-inbox/contract';
import { ALL_PERMISSIONS } from '@imaging-inbox/contract';
import { DEMO_USERS } from '../../src/seed/demo-world.js';
import type { AccountKey, Member, MatrixObject, NsKey, Principal, World } from './access-world.js';
import { DELEGATED_ADMIN_GRANT, MEMBER_EMAILS, isMember } from './access-world.js';

/**
 * The expected side of the authorization matrix: what each demo user holds where (written out from
 * the demo world, not computed by the code under test), the kinds of access rule a route follows,
 * and how an answer is read back into an outcome.
 */

/** An answer as the matrix compares it: OK, 401, or the refusal's error type. */
export type Outcome = 'OK' | '401' | 'NOT_FOUND' | 'NOT_PERMITTED' | (string & {});

const groupGrant = (email: string, group: string): readonly Permission[] =>
  DEMO_USERS.find((u) => u.email === email)!.groups.find((g) => g.group === group)!.permissions;

/**
 * The permissions a (non-admin) member holds on their account itself: as the demo world seeds them,
 * or, for the delegated admin the matrix invites, what its role grants.
 */
const accountGrant = (p: Member): readonly Permission[] =>
  p === 'delegatedAdmin'
    ? DELEGATED_ADMIN_GRANT
    : (DEMO_USERS.find((u) => u.email === MEMBER_EMAILS[p])?.accountPermissions ?? []);

/** What a user holds in the personal namespace of studies shared with them. */
const PERSONAL: readonly Permission[] = [
  'study_view',
  'study_download',
  'study_download_iso',
  'study_star',
  'study_tag',
  'study_delete',
];

/** The permissions each member holds in each namespace (an account admin: all, in every group of the account). */
const HOLDS: Record<Member, Partial<Record<NsKey, readonly Permission[]>>> = {
  viewer: { emergency: groupGrant('viewer@demo.local', 'emergency') },
  clinician: {
    emergency: groupGrant('clinician@demo.local', 'emergency'),
    cardiology: groupGrant('clinician@demo.local', 'cardiology'),
    clinicianPersonal: PERSONAL,
  },
  gatekeeper: { intake: groupGrant('gatekeeper@demo.local', 'intake') },
  partnerAdmin: { referrals: ALL_PERMISSIONS },
  // Another account's admin: every group of Partner Clinic, nothing of Demo Hospital.
  outsideAdmin: { referrals: ALL_PERMISSIONS },
  // Administers Demo Hospital's roles and users, in no group.
  delegatedAdmin: {},
  admin: {
    emergency: ALL_PERMISSIONS,
    cardiology: ALL_PERMISSIONS,
    intake: ALL_PERMISSIONS,
    teaching: ALL_PERMISSIONS,
  },
};

const ACCOUNT_ROLE: Record<Member, Partial<Record<AccountKey, 'admin' | 'member'>>> = {
  viewer: { demo: 'member' },
  clinician: { demo: 'member' },
  gatekeeper: { demo: 'member' },
  partnerAdmin: { partner: 'admin' },
  admin: { demo: 'admin' },
  outsideAdmin: { partner: 'admin' },
  delegatedAdmin: { demo: 'member' },
};

const NS_ACCOUNT: Record<NsKey, AccountKey> = {
  emergency: 'demo',
  cardiology: 'demo',
  intake: 'demo',
  teaching: 'demo',
  clinicianPersonal: 'demo',
  referrals: 'partner',
};

/** The viewer token was issued by the clinician for the Emergency study. */
const TOKEN_ISSUER: Member = 'clinician';
const TOKEN_STUDY = 'emergency';

/** Kept on a deleted study (the study's permissions object): it can be seen and restored, nothing else. */
const KEPT_WHEN_DELETED: readonly Permission[] = ['study_view', 'study_delete'];

/**
 * How a route decides who may call it. Every rule but `public` and the grant rules needs a signed-in
 * user (401 otherwise); a viewer token opens only DICOMweb reads.
 */
export type Rule =
  /** Reached without credentials; the answer is the same whoever asks. */
  | { kind: 'public'; expect: Outcome }
  /** Any signed-in user; no object. */
  | { kind: 'session' }
  /**
   * A study by uuid or storage path: NOT_FOUND (or `denied`) unless the caller views its group;
   * `deleted: 'hidden'` makes a deleted study NOT_FOUND too; `needs` a permission of the study's
   * permissions object (narrowed on a deleted study) or, with `groupFlag`, of its group;
   * `accountAdmin`: NOT_PERMITTED unless the caller is an admin of the study's account.
   */
  | {
      kind: 'study';
      needs?: Permission[];
      accountAdmin?: boolean;
      groupFlag?: boolean;
      deleted?: 'visible' | 'hidden' | 'refused';
      denied?: Outcome;
    }
  /** A DICOMweb read by Study Instance UID: a live copy in a namespace the caller views, or the viewer token's study. */
  | { kind: 'dicomweb' }
  /** QIDO-RS study search: a session or a viewer token. */
  | { kind: 'dicomwebSearch' }
  /** A group (namespace): NOT_FOUND (or `denied`) for non-members; `needs` a group permission (`lacking` answers for its absence). */
  | {
      kind: 'group';
      needs?: Permission;
      denied?: Outcome;
      lacking?: Outcome;
      /** The answer for an admin of the group's account who is not in the group (they know it exists). */
      adminDenied?: Outcome;
      /** Account permissions that let a member who is not in the group know it too (`adminDenied`). */
      knownWith?: Permission[];
      /** Account permissions that let a member who is not in the group read it anyway (OK). */
      administeredWith?: Permission[];
    }
  /**
   * An account: its members, its admins only, or (`destinations`) its admins and whoever may search
   * or push in one of its groups. `lacking`: what its other members get (NOT_FOUND unless said).
   */
  | { kind: 'account'; needs: 'member' | 'admin' | 'destinations'; lacking?: Outcome }
  /**
   * The users of an account: members holding any of `anyOf` on the account (an admin holds all);
   * other members get `lacking` (NOT_PERMITTED unless said), outsiders NOT_FOUND.
   */
  | { kind: 'accountUsers'; anyOf: Permission[]; lacking?: Outcome }
  /**
   * An account's orders: members holding `needs` on the account or in one of its groups (an admin
   * holds it); other members NOT_PERMITTED, outsiders NOT_FOUND.
   */
  | { kind: 'orders'; needs: 'order_view' | 'order_edit' }
  /** The link grant of a request-study link; anyone else has no grant. */
  | { kind: 'grant' }
  /** An upload session of the clinician's sign-in session: other callers do not find it. */
  | { kind: 'uploadSession' }
  /**
   * Answered without a session (as Ambra's SDK asks it: namespace/engine/fqdn) the same to anyone;
   * a session sent is checked, and its user then follows `signedIn`.
   */
  | { kind: 'sessionOptional'; signedIn: Rule };

function holds(p: Member, ns: NsKey): readonly Permission[] | undefined {
  return HOLDS[p][ns];
}

export function expected(rule: Rule, p: Principal, object: MatrixObject | undefined): Outcome {
  if (rule.kind === 'public') return rule.expect;
  if (rule.kind === 'sessionOptional')
    return p === 'none' || p === 'linkGrant' ? 'OK' : expected(rule.signedIn, p, object);
  if (rule.kind === 'grant') return p === 'linkGrant' ? 'OK' : 'NO_LINK_ERROR';
  if (rule.kind === 'dicomwebSearch') return isMember(p) || p === 'viewerToken' ? 'OK' : '401';
  if (rule.kind === 'dicomweb') {
    const o = object!;
    if (p === 'viewerToken') return o.key === TOKEN_STUDY ? 'OK' : 'NOT_FOUND';
    if (!isMember(p)) return '401';
    const seen = o.uidCopies.some((ns) => holds(p, ns)?.includes('study_view'));
    return seen ? 'OK' : 'NOT_FOUND';
  }
  if (!isMember(p)) return '401';
  switch (rule.kind) {
    case 'session':
      return 'OK';
    case 'accountUsers': {
      const account = object!.account;
      const role = ACCOUNT_ROLE[p][account];
      if (!role) return 'NOT_FOUND';
      const held = role === 'admin' ? ALL_PERMISSIONS : accountGrant(p);
      return rule.anyOf.some((x) => held.includes(x)) ? 'OK' : (rule.lacking ?? 'NOT_PERMITTED');
    }
    case 'orders': {
      const account = object!.account;
      const role = ACCOUNT_ROLE[p][account];
      if (!role) return 'NOT_FOUND';
      if (role === 'admin' || accountGrant(p).includes(rule.needs)) return 'OK';
      const groups = Object.entries(HOLDS[p]).filter(([ns]) => NS_ACCOUNT[ns as NsKey] === account);
      return groups.some(([, g]) => g.includes(rule.needs)) ? 'OK' : 'NOT_PERMITTED';
    }
    case 'uploadSession':
      return p === 'clinician' ? 'OK' : 'NOT_FOUND';
    case 'account': {
      const account = object!.account;
      const role = ACCOUNT_ROLE[p][account];
      if (!role || (rule.needs !== 'member' && role !== 'admin')) {
        if (role && rule.needs === 'destinations') {
          const groups = Object.entries(HOLDS[p]).filter(([ns]) => NS_ACCOUNT[ns as NsKey] === account);
          const uses = groups.some(([, g]) => g.includes('destination_search') || g.includes('study_push'));
          if (uses) return 'OK';
        }
        return (role && rule.lacking) || 'NOT_FOUND';
      }
      return 'OK';
    }
    case 'group': {
      const granted = holds(p, object!.ns);
      const accountRole = ACCOUNT_ROLE[p][NS_ACCOUNT[object!.ns]];
      const knows =
        accountRole === 'admin' ||
        (accountRole === 'member' && rule.knownWith?.some((x) => accountGrant(p).includes(x)));
      if (!granted && rule.adminDenied && knows) return rule.adminDenied;
      const administers =
        ACCOUNT_ROLE[p][NS_ACCOUNT[object!.ns]] === 'member' &&
        rule.administeredWith?.some((x) => accountGrant(p).includes(x));
      if (!granted && administers) return 'OK';
      if (!granted) return rule.denied ?? 'NOT_FOUND';
      if (rule.needs && !granted.includes(rule.needs)) return rule.lacking ?? 'NOT_PERMITTED';
      return 'OK';
    }
    case 'study': {
      const o = object!;
      const granted = holds(p, o.ns);
      if (!granted?.includes('study_view')) return rule.denied ?? 'NOT_FOUND';
      if (o.deleted && rule.deleted === 'hidden') return 'NOT_FOUND';
      if (rule.accountAdmin && ACCOUNT_ROLE[p][NS_ACCOUNT[o.ns]] !== 'admin') return 'NOT_PERMITTED';
      for (const permission of rule.needs ?? []) {
        const narrowed = o.deleted && !rule.groupFlag && !KEPT_WHEN_DELETED.includes(permission);
        if (!granted.includes(permission) || narrowed) return 'NOT_PERMITTED';
      }
      if (o.deleted && rule.deleted === 'refused') return 'NOT_PERMITTED';
      return 'OK';
    }
  }
}

/** The issuer of the viewer token, for requests that need one. */
export const viewerTokenIssuer = (world: World) => world.sids[TOKEN_ISSUER];

/**
 * The outcome of one answer: 401 (or EXPIRED in a bundle's sub-answer), OK for 2xx and the answers
 * a route lists in `accepts` (refusals that come after the access check, e.g. a bad field), else
 * the error type.
 */
export function outcomeOf(status: number, body: unknown, accepts: readonly string[] = []): Outcome {
  if (status === 401) return '401';
  const answer = body as { status?: string; error_type?: string; error_subtype?: string } | null;
  if (answer?.error_type === 'EXPIRED') return '401';
  if (status < 300 && answer?.status !== 'ERROR') return 'OK';
  const type = answer?.error_type;
  const seen = type ? [type, `${type}:${answer.error_subtype}`] : [`HTTP ${status}`];
  if (seen.some((s) => accepts.includes(s))) return 'OK';
  return seen[0]!;
}
