import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';

/**
 * studies.modality_bits: the study's modality set as a bit mask (see contract modality-bits.ts),
 * with a partial index over live studies so a modality count reads one index range per namespace.
 * Filled by the ingest pipeline; the backfill of existing rows is its own migration.
 */
export const modalityBits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('studies')
      .addColumn('modality_bits', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('studies_live_ns_modality_bits')
      .on('studies')
      .columns(['namespace_id', 'modality_bits'])
      .where(sql.ref('deleted'), 'is', null)
      .execute();
  },
};
