/** One event of audit/log (an account's audit for audit_view holders). */
export interface AuditLogEntry {
  id: number;
  when: string;
  action: string;
  outcome: string;
  type: string;
  object_id: string | null;
  user_id: string | null;
  user_name: string | null;
  user_email: string | null;
  ip: string | null;
  detail: Record<string, unknown> | null;
}
