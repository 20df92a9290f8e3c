import type { AppContext } from '../context.js';
import type { Caller } from '../policies/access.js';

const HOUR = 3_600_000;

/** What becomes of each seeded nomination, in turn. */
const OUTCOMES = ['waiting', 'completed', 'failed', 'rejected'] as const;

/** The offline PACS the demo's failed nomination was sent to (our listener refuses its AE title). */
export const DEMO_OFFLINE_PACS = { name: 'Radiology PACS (offline)', aeTitle: 'RADIOLOGY_PACS' } as const;

interface Destinations {
  /** PACS Archive: our own listener, its pushes complete. */
  archive: string;
  /** The offline PACS: its pushes end Failed, with the reason and a Retry. */
  offline: string;
}

/**
 * PACS Intake's nominations, made the way people make them: the clinician nominates each exam
 * (study/nominate's service, with the form's answers), then the gatekeeper leaves one in four
 * waiting, approves one to PACS Archive (its push completes once the jobs run), approves one to the
 * offline PACS (its push fails, names that destination and can be retried) and rejects one with a
 * reason. Every step writes the history, audit and mails a real one does. Answers the gatekeeper's
 * copies still waiting, newest nomination first.
 */
export async function seedDemoNominations(
  ctx: AppContext,
  studies: string[],
  intake: string,
  destinations: Destinations,
  now: number,
): Promise<string[]> {
  const clinician = await callerOf(ctx, 'clinician@demo.local');
  const gatekeeper = await callerOf(ctx, 'gatekeeper@demo.local');
  const waiting: string[] = [];
  for (const [index, uuid] of studies.entries()) {
    const priority = index % 2 === 0 ? 'Routine' : 'Priority';
    const nomination = await ctx.services.nominations.nominate(clinician, {
      uuid,
      gatekeeperId: intake,
      answers: {
        priority,
        reason_for_visit: REASONS[index % REASONS.length]!,
        nominated_by: 'Dr Claire Clinician',
      },
    });
    const copy = nomination.copy_uuid!;
    // Nominated over the past hours, so the Nominations list has an order to sort by.
    await ctx.repos.studies.setCustomFields(copy, {
      nominated_at: new Date(now - index * HOUR).toISOString(),
      priority,
    });
    const outcome = OUTCOMES[index % OUTCOMES.length];
    if (outcome === 'waiting') waiting.push(copy);
    if (outcome === 'completed' || outcome === 'failed') {
      const destination = outcome === 'completed' ? destinations.archive : destinations.offline;
      await ctx.services.nominationProcess.approve(gatekeeper, { uuid: copy, destination_id: destination });
    }
    if (outcome === 'rejected') {
      await ctx.services.nominations.reject(
        gatekeeper,
        copy,
        'Duplicate exam',
        'This exam is already in the PACS under another accession number.',
      );
    }
  }
  return waiting;
}

/** Reasons for visit the clinician gives, in turn. */
const REASONS = ['Outside CT for follow-up', 'Chest pain, prior imaging', 'Trauma transfer'];

/** A demo user as the services see a signed-in one. */
async function callerOf(ctx: AppContext, email: string): Promise<Caller> {
  const user = await ctx.repos.users.findByEmail(email);
  if (!user) throw new Error(`demo user ${email} missing`);
  return ctx.services.access.load(user, 'demo-seed', '127.0.0.1');
}
