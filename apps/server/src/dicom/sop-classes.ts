/**
 * Which SOP class and pixel layout the demo writer uses for each modality.
 * Kept apart from write.ts so the generator and tests can list the supported modalities.
 */
export const MODALITIES = ['CT', 'MR', 'CR', 'DX', 'US', 'MG', 'PT', 'NM', 'XA', 'XC'] as const;
export type Modality = (typeof MODALITIES)[number];

/** Storage SOP Class UIDs (PS3.4 B.5) for the image type each modality normally produces. */
export const SOP_CLASS_BY_MODALITY: Record<Modality, string> = {
  CT: '1.2.840.10008.5.1.4.1.1.2', // CT Image Storage
  MR: '1.2.840.10008.5.1.4.1.1.4', // MR Image Storage
  CR: '1.2.840.10008.5.1.4.1.1.1', // Computed Radiography Image Storage
  DX: '1.2.840.10008.5.1.4.1.1.1.1', // Digital X-Ray Image Storage - For Presentation
  US: '1.2.840.10008.5.1.4.1.1.6.1', // Ultrasound Image Storage
  MG: '1.2.840.10008.5.1.4.1.1.1.2', // Digital Mammography X-Ray Image Storage - For Presentation
  PT: '1.2.840.10008.5.1.4.1.1.128', // Positron Emission Tomography Image Storage
  NM: '1.2.840.10008.5.1.4.1.1.20', // Nuclear Medicine Image Storage
  XA: '1.2.840.10008.5.1.4.1.1.12.1', // X-Ray Angiographic Image Storage
  XC: '1.2.840.10008.5.1.4.1.1.77.1.4', // VL Photographic Image Storage
};

/** Ultrasound and photographs are colour; everything else here is 16-bit greyscale. */
export function isColorModality(modality: Modality): boolean {
  return modality === 'US' || modality === 'XC';
}
