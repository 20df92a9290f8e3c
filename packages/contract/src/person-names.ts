/** DICOM person names use ^ between components: DOE^JOHN → DOE, JOHN, as every page and export writes them. */
export function formatPatientName(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .split('^')
    .filter((part) => part.trim() !== '')
    .join(', ');
}

/** The reverse of formatPatientName, for a name typed in that form: DOE, JOHN → DOE^JOHN. */
export function patientNameFromDisplay(value: string): string {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join('^');
}
