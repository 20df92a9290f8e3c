/**
 * Vocabulary for generated demo studies. Plain data, kept out of generate.ts so the generator reads as
 * logic (prettier-ignore keeps the word lists compact). Descriptions follow common US order-code naming so the worklist looks like a real one.
 */
import type { Modality } from './sop-classes.js';

// prettier-ignore
export const LAST_NAMES = [
  'SMITH', 'JOHNSON', 'WILLIAMS', 'BROWN', 'JONES', 'GARCIA', 'MILLER', 'DAVIS', 'RODRIGUEZ', 'MARTINEZ',
  'HERNANDEZ', 'LOPEZ', 'GONZALEZ', 'WILSON', 'ANDERSON', 'THOMAS', 'TAYLOR', 'MOORE', 'JACKSON', 'MARTIN',
  'LEE', 'PEREZ', 'THOMPSON', 'WHITE', 'HARRIS', 'SANCHEZ', 'CLARK', 'RAMIREZ', 'LEWIS', 'ROBINSON',
  'WALKER', 'YOUNG', 'ALLEN', 'KING', 'WRIGHT', 'SCOTT', 'TORRES', 'NGUYEN', 'HILL', 'FLORES',
  'GREEN', 'ADAMS', 'NELSON', 'BAKER', 'HALL', 'RIVERA', 'CAMPBELL', 'MITCHELL', 'CARTER', 'ROBERTS',
  'KIM', 'PATEL', 'SHAH', 'OKAFOR', 'MULLER', 'SCHMIDT', 'ROSSI', 'DUBOIS', 'TANAKA', 'OBRIEN',
] as const;

// prettier-ignore
export const FEMALE_FIRST_NAMES = [
  'MARY', 'PATRICIA', 'JENNIFER', 'LINDA', 'ELIZABETH', 'BARBARA', 'SUSAN', 'JESSICA', 'SARAH', 'KAREN',
  'LISA', 'NANCY', 'BETTY', 'MARGARET', 'SANDRA', 'ASHLEY', 'KIMBERLY', 'EMILY', 'DONNA', 'MICHELLE',
  'CAROL', 'AMANDA', 'MELISSA', 'DEBORAH', 'STEPHANIE', 'REBECCA', 'LAURA', 'SHARON', 'AISHA', 'YUKI',
] as const;

// prettier-ignore
export const MALE_FIRST_NAMES = [
  'JAMES', 'ROBERT', 'JOHN', 'MICHAEL', 'DAVID', 'WILLIAM', 'RICHARD', 'JOSEPH', 'THOMAS', 'CHARLES',
  'CHRISTOPHER', 'DANIEL', 'MATTHEW', 'ANTHONY', 'MARK', 'DONALD', 'STEVEN', 'PAUL', 'ANDREW', 'JOSHUA',
  'KENNETH', 'KEVIN', 'BRIAN', 'GEORGE', 'TIMOTHY', 'RONALD', 'JASON', 'EDWARD', 'RAJ', 'HIROSHI',
] as const;

// prettier-ignore
export const REFERRING_PHYSICIANS = [
  'HOUSE^GREGORY', 'GREY^MEREDITH', 'SHEPHERD^DEREK', 'ROSS^DOUGLAS', 'CARTER^JOHN', 'WEAVER^KERRY',
  'KOVAC^LUKA', 'BAILEY^MIRANDA', 'CUDDY^LISA', 'WILSON^JAMES', 'QUINN^MICHAELA', 'KILDARE^JAMES',
] as const;

// prettier-ignore
export const INSTITUTIONS = [
  'GENERAL HOSPITAL', 'ST. MARY MEDICAL CENTER', 'LAKESIDE IMAGING', 'NORTHWEST CLINIC',
  'UNIVERSITY MEDICAL CENTER', 'RIVERSIDE ORTHOPEDICS',
] as const;

/** XC (external photos) is only made by the upload wrapper, never by the demo generator. */
export type CatalogModality = Exclude<Modality, 'XC'>;

export interface ProcedureTemplate {
  description: string;
  bodyPart: string;
  series: readonly string[];
}

/** How often each modality appears, roughly as in a general hospital's archive. */
// prettier-ignore
export const MODALITY_WEIGHTS: ReadonlyArray<readonly [CatalogModality, number]> = [
  ['CT', 24], ['MR', 16], ['CR', 18], ['DX', 14], ['US', 12], ['MG', 6], ['PT', 3], ['NM', 3], ['XA', 4],
];

// prettier-ignore
export const PROCEDURES: Record<CatalogModality, readonly ProcedureTemplate[]> = {
  CT: [
    { description: 'CT CHEST W/O CONTRAST', bodyPart: 'CHEST', series: ['AXIAL 2.5MM', 'CORONAL MPR', 'LUNG WINDOW', 'SCOUT'] },
    { description: 'CT ABDOMEN PELVIS W CONTRAST', bodyPart: 'ABDOMEN', series: ['PORTAL VENOUS', 'DELAYED', 'CORONAL MPR', 'SCOUT'] },
    { description: 'CT HEAD W/O CONTRAST', bodyPart: 'HEAD', series: ['AXIAL 5MM', 'BONE WINDOW', 'SAGITTAL MPR'] },
    { description: 'CTA CHEST PE PROTOCOL', bodyPart: 'CHEST', series: ['ARTERIAL', 'MIP', 'CORONAL MPR'] },
  ],
  MR: [
    { description: 'MRI BRAIN W/WO CONTRAST', bodyPart: 'HEAD', series: ['T1 AX', 'T2 AX', 'FLAIR AX', 'DWI', 'T1 AX POST'] },
    { description: 'MRI LUMBAR SPINE W/O CONTRAST', bodyPart: 'LSPINE', series: ['T1 SAG', 'T2 SAG', 'T2 AX'] },
    { description: 'MRI KNEE RIGHT W/O CONTRAST', bodyPart: 'KNEE', series: ['PD COR', 'PD FS SAG', 'T1 COR'] },
  ],
  CR: [
    { description: 'XR CHEST 2 VIEWS', bodyPart: 'CHEST', series: ['PA', 'LATERAL'] },
    { description: 'XR HAND LEFT 3 VIEWS', bodyPart: 'HAND', series: ['PA', 'OBLIQUE', 'LATERAL'] },
  ],
  DX: [
    { description: 'XR KNEE RIGHT 2 VIEWS', bodyPart: 'KNEE', series: ['AP', 'LATERAL'] },
    { description: 'XR LUMBAR SPINE 2 VIEWS', bodyPart: 'LSPINE', series: ['AP', 'LATERAL'] },
    { description: 'XR CHEST PORTABLE', bodyPart: 'CHEST', series: ['AP PORTABLE'] },
  ],
  US: [
    { description: 'US ABDOMEN COMPLETE', bodyPart: 'ABDOMEN', series: ['LIVER', 'GALLBLADDER', 'KIDNEYS', 'SPLEEN'] },
    { description: 'US PELVIS TRANSVAGINAL', bodyPart: 'PELVIS', series: ['UTERUS', 'OVARIES'] },
    { description: 'US THYROID', bodyPart: 'NECK', series: ['RIGHT LOBE', 'LEFT LOBE', 'ISTHMUS'] },
  ],
  MG: [
    { description: 'MAMMO SCREENING BILATERAL', bodyPart: 'BREAST', series: ['R CC', 'L CC', 'R MLO', 'L MLO'] },
    { description: 'MAMMO DIAGNOSTIC LEFT', bodyPart: 'BREAST', series: ['L CC', 'L MLO', 'L SPOT'] },
  ],
  PT: [{ description: 'PET/CT SKULL BASE TO THIGH', bodyPart: 'WHOLEBODY', series: ['PET AC', 'PET NAC', 'MIP'] }],
  NM: [
    { description: 'NM BONE SCAN WHOLE BODY', bodyPart: 'WHOLEBODY', series: ['ANTERIOR', 'POSTERIOR'] },
    { description: 'NM MYOCARDIAL PERFUSION', bodyPart: 'HEART', series: ['STRESS', 'REST', 'GATED'] },
  ],
  XA: [
    { description: 'XA CORONARY ANGIOGRAPHY', bodyPart: 'HEART', series: ['LAO 30', 'RAO 30', 'AP CRANIAL'] },
    { description: 'XA CEREBRAL ANGIOGRAPHY', bodyPart: 'HEAD', series: ['AP', 'LATERAL'] },
  ],
};
