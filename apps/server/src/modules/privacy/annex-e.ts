/**
 * DICOM PS3.15 Annex E, Table E.1-1: what the Basic Application Level Confidentiality Profile does
 * to each attribute, and what each option this product offers changes. One row per attribute:
 * `tag basic [option:action ...]`, options named by the letters of `OPTION_LETTERS`.
 *
 * Actions (E.1.1 / Table E.1-1a): X remove, Z empty (or a dummy of the same VR), D dummy value,
 * U new UID (consistent within the account), K keep, C clean (a date shifted, a text scrubbed of
 * identifying values, a sequence's items de-identified). Combined codes (X/Z, X/D, Z/D, X/Z/D,
 * X/Z/U*) depend on the attribute's type in its IOD; without the IOD at hand the engine takes the
 * choice that keeps a conforming file conforming (`resolveCombined`).
 */

import { ANONYMIZATION_OPTIONS, type AnonymizationOption } from '@imaging-inbox/contract';

export type Action = 'X' | 'Z' | 'D' | 'U' | 'K' | 'C';

/** The options of Table E.1-1 a profile may choose: the contract's list, under the engine's name. */
export const DEIDENTIFICATION_OPTIONS = ANONYMIZATION_OPTIONS;
export type DeidentificationOption = AnonymizationOption;

const OPTION_LETTERS: Record<string, DeidentificationOption> = {
  L: 'retainLongitudinalModifiedDates',
  P: 'retainPatientCharacteristics',
  V: 'retainDeviceIdentity',
  U: 'retainUids',
  D: 'cleanDescriptors',
  S: 'cleanStructuredContent',
};

/** The code of CID 7050 for the profile and each option, written into (0012,0064). */
export const OPTION_CODES: Record<'basic' | DeidentificationOption, { code: string; meaning: string }> = {
  basic: { code: '113100', meaning: 'Basic Application Confidentiality Profile' },
  cleanStructuredContent: { code: '113104', meaning: 'Clean Structured Content Option' },
  cleanDescriptors: { code: '113105', meaning: 'Clean Descriptors Option' },
  retainLongitudinalModifiedDates: {
    code: '113107',
    meaning: 'Retain Longitudinal Temporal Information Modified Dates Option',
  },
  retainPatientCharacteristics: { code: '113108', meaning: 'Retain Patient Characteristics Option' },
  retainDeviceIdentity: { code: '113109', meaning: 'Retain Device Identity Option' },
  retainUids: { code: '113110', meaning: 'Retain UIDs Option' },
};

// prettier-ignore
const TABLE = `
00080012 X/D L:C|00080013 X/Z/D L:C|00080014 U U:K|00080015 X L:C|00080018 U U:K|00080020 Z L:C
00080021 X/D L:C|00080022 X/Z L:C|00080023 Z/D L:C|00080024 X L:C|00080025 X L:C|0008002A X/D L:C
00080030 Z L:C|00080031 X/D L:C|00080032 X/Z L:C|00080033 Z/D L:C|00080034 X L:C|00080035 X L:C
00080050 Z|00080058 U U:K|00080080 X/Z/D|00080081 X|00080082 X/Z/D|00080090 Z|00080092 X|00080094 X
00080096 X|0008009C Z|0008009D X|0008010D U U:K|00080201 X L:C|00081010 X/Z/D V:K|00081030 X D:C
0008103E X D:C|00081040 X|00081041 X|00081048 X|00081049 X|00081050 X|00081052 X|00081060 X
00081062 X|00081070 X/Z/D|00081072 X/D|00081080 X D:C|00081084 X D:C|00081110 X/Z|00081111 X/Z/D
00081120 X|00081140 X/Z/U*|00081155 U U:K|00081195 U U:K|00082111 X D:C|00082112 X/Z/U*
00083010 U U:K|00084000 X D:C|00089123 U U:K
00100010 Z|00100020 Z|00100021 X|00100022 X|00100024 X|00100026 X|00100027 X|00100030 Z|00100032 X
00100033 X|00100034 X|00100035 X|00100040 Z P:K|00100050 X|00100101 X|00100102 X|00101000 X
00101001 X|00101002 X|00101005 X|00101010 X P:K|00101020 X P:K|00101030 X P:K|00101040 X|00101050 X
00101060 X|00101080 X|00101081 X|00101090 X|00101100 X|00102000 X P:C|00102110 X P:C|00102150 X
00102152 X|00102154 X|00102155 X|00102160 X P:K|00102180 X P:C|001021A0 X P:K|001021B0 X P:C
001021C0 X P:K|001021D0 X L:C|001021F0 X|00102203 X/Z P:K|00102297 X|00102299 X|00104000 X D:C
00120010 D|00120020 D|00120021 Z|00120030 Z|00120031 Z|00120040 D|00120042 D|00120050 Z
00120051 X D:C|00120060 Z|00120071 X|00120072 X D:C|00120081 D|00120082 Z
00160070 X|00160071 X|00160072 X|00160073 X|00160074 X|00160075 X|00160076 X|00160077 X|00160078 X
00160079 X|0016007A X|0016007B X|0016007C X|0016007D X|0016007E X|0016007F X|00160080 X|00160081 X
00160082 X|00160083 X|00160084 X|00160085 X|00160086 X|00160087 X|00160088 X|00160089 X|0016008A X
0016008B X|0016008C X|0016008D X|0016008E X|0016004B X|0016004D X|0016004F X|00160050 X
00160051 X V:K
00180010 Z/D D:C|00181000 X/Z/D V:K|00181002 U U:K V:K|00181004 X V:K|00181005 X V:K|00181007 X V:K
00181008 X V:K|0018100B U U:K|00181012 X L:C|00181014 X L:C|00181030 X/D D:C|00181042 X L:C
00181043 X L:C|00181072 X L:C|00181073 X L:C|00181078 X L:C|00181079 X L:C|00181200 X L:C
00181201 X L:C|00181400 X/D D:C V:C|00184000 X D:C|0018700A X/D V:K|00189074 X/D L:C
00189151 X/D L:C|00189424 X D:C|00189516 X/D L:C|00189517 X/D L:C|00189701 X/D L:C|00189804 X L:C
0018A002 X/D L:C|0018A003 X D:C
0020000D U U:K|0020000E U U:K|00200010 Z|00200052 U U:K|00200200 U U:K|00203401 X V:K
00203403 X L:C|00203404 X V:K|00203405 X L:C|00203406 X D:C|00204000 X D:C|00209158 X D:C
00209161 U U:K|00209164 U U:K
00281199 U U:K|00281214 U U:K|00284000 X D:C
00320012 X|00320032 X L:C|00320033 X L:C|00320034 X L:C|00320035 X L:C|00321000 X L:C
00321001 X L:C|00321010 X L:C|00321011 X L:C|00321020 X|00321021 X V:K|00321030 X D:C|00321032 X
00321033 X|00321040 X L:C|00321041 X L:C|00321050 X L:C|00321051 X L:C|00321060 X/Z D:C
00321066 X D:C|00321067 X D:C|00321070 X D:C|00324000 X D:C
00380004 X|00380010 X|00380011 X|00380014 X|0038001A X L:C|0038001B X L:C|0038001C X L:C
0038001D X L:C|0038001E X|00380020 X L:C|00380021 X L:C|00380030 X L:C|00380032 X L:C
00380040 X D:C|00380050 X P:C|00380060 X|00380061 X|00380062 X D:C|00380064 X|00380300 X
00380400 X|00380500 X P:C|00381234 X
00400001 X V:K|00400002 X L:C|00400003 X L:C|00400004 X L:C|00400005 X L:C|00400006 X
00400007 X D:C|00400009 X|0040000B X|00400010 X V:K|00400011 X V:K|00400012 X P:C
00400241 X V:K|00400242 X V:K|00400243 X V:K|00400244 X L:C|00400245 X L:C|00400250 X L:C
00400251 X L:C|00400253 X|00400254 X D:C|00400275 X|00400280 X D:C|00400555 X/Z S:C|00401001 X
00401002 X D:C|00401004 X|00401005 X|00401010 X|00401011 X|00401101 D|00401102 X|00401103 X
00401104 X|00401400 X D:C|00402001 X D:C|00402004 X L:C|00402005 X L:C|00402008 X|00402009 X
00402010 X|00402011 X|00402016 Z|00402017 Z|00402400 X D:C|00403001 X|00404023 U U:K
00404025 X V:K|00404027 X V:K|00404028 X V:K|00404030 X V:K|00404034 X|00404035 X|00404036 X
00404037 X|0040A027 X/D|0040A030 D L:C|0040A032 X/D L:C|0040A073 D|0040A075 D|0040A078 X
0040A07A X|0040A07C X|0040A082 X L:C|0040A088 Z|0040A120 X/D L:C|0040A121 X/D L:C
0040A122 X/D L:C|0040A123 D|0040A124 U U:K|0040A160 X D:C S:C|0040A171 U U:K|0040A172 U U:K
0040A192 X L:C|0040A193 X L:C|0040A307 X|0040A352 X|0040A358 X|0040A402 U U:K|0040A730 X S:C
0040DB0C U U:K|0040DB0D U U:K
00500020 X V:K
00700084 Z|00700086 X|0070031A U U:K
00880140 U U:K|00880200 X|00880904 X|00880906 X|00880910 X|00880912 X
30060002 D D:C|30060004 X D:C|30060006 X D:C|30060008 Z L:C|30060009 Z L:C|30060024 U U:K
30060028 X D:C|30060038 X D:C|300600A6 Z|300600C2 U U:K
300A0002 D D:C|300A0003 X D:C|300A0004 X D:C|300A0006 X/Z/D L:C|300A0007 X/Z/D L:C
300A000E X D:C|300A0013 U U:K|300A0016 X D:C|300A00B2 X/Z/D V:K|300A00C3 X D:C
300A0650 U U:K|300A0700 U U:K
300E0004 X/Z L:C|300E0005 X/Z L:C|300E0008 X/Z
30080024 X L:C|30080025 X L:C|30080105 X V:K|30080250 X L:C|30080251 X L:C
40080042 X|40080100 X L:C|40080101 X L:C|40080102 X|40080108 X L:C|40080109 X L:C|4008010A X
4008010B X D:C|4008010C X|40080111 X|40080112 X L:C|40080113 X L:C|40080114 X|40080115 X D:C
40080118 X|40080119 X|4008011A X|40080202 X|40080300 X D:C|40084000 X D:C
04000100 X|04000105 X L:C|04000115 X|04000120 X|04000305 X|04000310 X|04000402 X|04000403 X
04000404 X|04000550 X|04000561 X|04000562 X L:C|04000563 X|04000564 X|04000565 X|FFFAFFFA X
`;

interface Row {
  basic: string;
  options: Partial<Record<DeidentificationOption, Action>>;
}

function parseTable(text: string): Map<string, Row> {
  const rows = new Map<string, Row>();
  for (const cell of text.split(/[|\n]/)) {
    const [tag, basic, ...rest] = cell.trim().split(' ');
    if (!tag || !basic) continue;
    const options: Row['options'] = {};
    for (const part of rest) {
      const [letter, action] = part.split(':') as [string, Action];
      options[OPTION_LETTERS[letter]!] = action;
    }
    rows.set(tag, { basic, options });
  }
  return rows;
}

/** Table E.1-1 by tag (`ggggeeee`, upper-case hex). */
export const ANNEX_E = parseTable(TABLE);

/**
 * One action for a combined code: a dummy where the choice allows it (a Type 1 attribute stays
 * present), else empty (Type 2 stays present), else removal; `X/Z/U*` (references to other
 * instances) keeps the sequence and remaps the UIDs inside it.
 */
function resolveCombined(code: string): Action {
  if (code.includes('U')) return 'U';
  if (code.includes('D')) return 'D';
  if (code.includes('Z')) return 'Z';
  return code as Action;
}

/**
 * What happens to a standard attribute under these options, or null when Table E.1-1 does not
 * list it (it is kept). When several chosen options name the attribute, the one that keeps more
 * wins (K over C), as E.3 lets an option retain what the profile would remove.
 */
export function annexEAction(tag: string, options: ReadonlySet<DeidentificationOption>): Action | null {
  const row = ANNEX_E.get(tag);
  if (!row) return null;
  let chosen: Action | null = null;
  for (const [option, action] of Object.entries(row.options) as [DeidentificationOption, Action][]) {
    if (!options.has(option)) continue;
    if (chosen === null || action === 'K') chosen = action;
  }
  return chosen ?? resolveCombined(row.basic);
}
