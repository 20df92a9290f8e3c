/**
 * Minimal typings for the parts of dcmjs 0.51 this project uses; dcmjs ships no TypeScript types.
 * Kept deliberately narrow so a wrong call fails to compile instead of becoming `any`.
 */
declare module 'dcmjs' {
  /** One element of a denaturalized dataset, keyed by `ggggeeee` tag hex. */
  export interface DicomElement {
    vr: string;
    Value: unknown[];
  }
  export type DenaturalizedDataset = Record<string, DicomElement>;
  /** A dataset keyed by DICOM keyword; `_vrMap` picks the VR where the dictionary allows several (OB/OW). */
  export type NaturalizedDataset = Record<string, unknown> & { _vrMap?: Record<string, string> };

  export class DicomDict {
    constructor(meta: DenaturalizedDataset);
    meta: DenaturalizedDataset;
    dict: DenaturalizedDataset;
    write(options?: { allowInvalidVRLength?: boolean }): ArrayBuffer;
  }

  export class DicomMetaDictionary {
    static denaturalizeDataset(dataset: NaturalizedDataset): DenaturalizedDataset;
    static naturalizeDataset(dataset: DenaturalizedDataset): NaturalizedDataset;
    static uid(): string;
    /** The data dictionary by keyword, e.g. `PatientName` → tag `(0010,0010)`, VR `PN`. */
    static nameMap: Record<string, { tag: string; vr: string; name: string }>;
    /** The data dictionary by tag, e.g. `(0010,0010)` → VR `PN`. */
    static dictionary: Record<string, { tag: string; vr: string; name: string } | undefined>;
  }

  export class DicomMessage {
    static readFile(buffer: ArrayBuffer, options?: Record<string, unknown>): DicomDict;
  }

  interface Data {
    DicomDict: typeof DicomDict;
    DicomMetaDictionary: typeof DicomMetaDictionary;
    DicomMessage: typeof DicomMessage;
  }

  interface Log {
    setLevel(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent'): void;
    getLevel(): number;
  }

  const dcmjs: { data: Data; log: Log };
  export default dcmjs;
}
