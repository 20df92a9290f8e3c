import type { AppContext } from '../context.js';

/** How many of PACS Intake's seeded nominations get an order to match them with. */
export const DEMO_ORDER_COUNT = 4;

/**
 * Orders of Demo Hospital for a few of PACS Intake's seeded nominations, so Search Order finds one
 * on a first run: the exam's own patient, with an accession number and the requested procedure.
 * Every other order differs a little from its exam (the comparison has something to show): a
 * birth date a day off, a study description the order words differently.
 */
export async function seedDemoOrders(ctx: AppContext, accountId: string, nominations: string[]) {
  for (const [index, studyUuid] of nominations.slice(0, DEMO_ORDER_COUNT).entries()) {
    const study = await ctx.repos.studies.findByUuid(studyUuid);
    if (!study) continue;
    const differ = index % 2 === 1;
    await ctx.services.orders.create(
      accountId,
      {
        accession_number: `ORD${String(1001 + index)}`,
        patient_name: study.patient_name,
        patientid: study.patientid,
        patient_birth_date: differ ? dayAfter(study.patient_birth_date) : study.patient_birth_date,
        patient_sex: study.patient_sex,
        requested_procedure: differ ? `${study.modality.split('\\')[0]} requested` : study.study_description,
        modality: study.modality.split('\\')[0] ?? '',
        scheduled_date: study.study_date,
        referring_physician: study.referring_physician,
      },
      index === 0 ? 'HL7' : 'manual',
      { userId: null, ip: null, detail: { seed: true } },
    );
  }
}

/** A DICOM date one day later ('' stays ''). */
function dayAfter(date: string): string {
  if (!/^\d{8}$/.test(date)) return date;
  const next = new Date(Date.UTC(+date.slice(0, 4), +date.slice(4, 6) - 1, +date.slice(6, 8) + 1));
  return next.toISOString().slice(0, 10).replaceAll('-', '');
}
