import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, WebhookDeliveryTable, WebhookTable } from '../../db/schema.js';

export type WebhookRow = Selectable<WebhookTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;

/** Webhooks of accounts and their delivery log. */
export class WebhooksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  ofAccount(accountId: string): Promise<WebhookRow[]> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created')
      .orderBy('uuid')
      .execute();
  }

  find(uuid: string): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  async insert(row: Insertable<WebhookTable>): Promise<void> {
    await this.db.insertInto('webhooks').values(row).execute();
  }

  async update(uuid: string, changes: Updateable<WebhookTable>): Promise<void> {
    await this.db.updateTable('webhooks').set(changes).where('uuid', '=', uuid).execute();
  }

  /** Removes the webhook and its log; deliveries still queued find it gone and stop. */
  async remove(uuid: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', uuid).execute();
      await trx.deleteFrom('webhooks').where('uuid', '=', uuid).execute();
    });
  }

  async insertDelivery(row: Insertable<WebhookDeliveryTable>): Promise<void> {
    await this.db.insertInto('webhook_deliveries').values(row).execute();
  }

  findDelivery(uuid: string): Promise<WebhookDeliveryRow | undefined> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  async updateDelivery(uuid: string, changes: Updateable<WebhookDeliveryTable>): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set(changes).where('uuid', '=', uuid).execute();
  }

  /** A page of a webhook's deliveries, newest first; one row more than asked tells of a next page. */
  deliveries(webhookId: string, limit: number, offset: number): Promise<WebhookDeliveryRow[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('created', 'desc')
      .orderBy('uuid')
      .limit(limit)
      .offset(offset)
      .execute();
  }
}
