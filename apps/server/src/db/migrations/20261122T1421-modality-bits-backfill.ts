import type { Kysely, Migration } from 'kysely';
import { modalityMask } from '@imaging-inbox/contract';

/** Data backfill: computes modality_bits for studies indexed before the column existed. */
export const modalityBitsBackfill: Migration = {
  async up(db: Kysely<unknown>) {
    const k = db as Kysely<{
      study_modalities: { study_uuid: string; modality: string };
      studies: { uuid: string; modality_bits: number };
    }>;
    const rows = await k.selectFrom('study_modalities').select(['study_uuid', 'modality']).execute();
    const byStudy = new Map<string, string[]>();
    for (const r of rows) byStudy.set(r.study_uuid, [...(byStudy.get(r.study_uuid) ?? []), r.modality]);
    for (const [uuid, modalities] of byStudy) {
      await k
        .updateTable('studies')
        .set({ modality_bits: modalityMask(modalities) })
        .where('uuid', '=', uuid)
        .execute();
    }
  },
};
