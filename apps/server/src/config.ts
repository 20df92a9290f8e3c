import os from 'node:os';
import path from 'node:path';
import { MAX_UPLOAD_BYTES } from '@imaging-inbox/contract';
import { z } from 'zod';
import type { AtnaConfig } from './audit/atna-config.js';
import { ATNA_ENV, atnaConfig } from './audit/atna-config.js';

/**
 * Configuration comes from the environment only, validated once at boot. Defaults give the embedded
 * mode: SQLite and files under ./data, HTTP on 127.0.0.1:8080, mail into the outbox table.
 */
/** A comma-separated list of hosts, addresses and CIDR ranges, trimmed and lower-cased. */
const hostList = () =>
  z
    .string()
    .optional()
    .transform((raw) =>
      (raw ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    );

const portSchema = z.coerce.number().int().min(0).max(65535);

const envSchema = z.object({
  PORT: portSchema.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Stored files, shared by every server process (default DATA_DIR/blobs); the rest of DATA_DIR is this process's. */
  BLOB_DIR: z.string().min(1).optional(),
  /**
   * Where stored files live: `file:///path` (the files under BLOB_DIR when unset) or `s3://bucket` or
   * `s3://bucket/prefix` on an S3-compatible object store (S3_ENDPOINT, AWS_REGION, AWS_* credentials).
   */
  BLOB_STORE: z
    .string()
    .trim()
    .refine((v) => /^file:\/\/\/./.test(v) || /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(v), {
      message: 'must be file:///absolute/path or s3://bucket[/prefix]',
    })
    .optional(),
  /** The object store's URL (s3rver, a MinIO-like server); unset for AWS itself. Path-style addressing when set. */
  S3_ENDPOINT: z.string().url().optional(),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /**
   * 1 (default): a young file store makes its 65,536 blob directories ahead, at low priority, so
   * received instances do not each wait for one (decision 0049); 0: each is made on first use.
   */
  BLOB_DIRECTORIES_AHEAD: z.enum(['0', '1']).default('1'),
  /** An unreferenced stored file is removed only once nothing wrote it for this long. */
  BLOB_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(600),
  DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must start with postgres:// (leave it unset for SQLite)')
    .optional(),
  /** 0 picks a free port (tests); the bound port is reported by startServer. */
  DICOM_PORT: portSchema.default(11112),
  /** ARTIM: a DICOM connection must send its association request within this time. */
  DICOM_ARTIM_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** An established DICOM association that sends nothing for this long is aborted. */
  DICOM_IDLE_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** DICOM connections held at once; more are closed as they arrive. */
  DICOM_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(100_000).default(200),
  /**
   * The DICOM TLS listener's port (beside DICOM_PORT, same associations); unset: no TLS listener.
   * Needs DICOM_TLS_CERT_FILE and DICOM_TLS_KEY_FILE. 0 picks a free port (tests).
   */
  DICOM_TLS_PORT: portSchema.optional(),
  /** PEM certificate (chain) the TLS listener presents. */
  DICOM_TLS_CERT_FILE: z.string().min(1).optional(),
  /** PEM private key of DICOM_TLS_CERT_FILE (unencrypted; readable by the server only). */
  DICOM_TLS_KEY_FILE: z.string().min(1).optional(),
  /** PEM CA certificate(s): when set, a TLS peer must present a certificate they signed, else it is refused. */
  DICOM_TLS_CA_FILE: z.string().min(1).optional(),
  /** The called AE title of our SCP: 1–16 characters of the DICOM AE repertoire, no backslash. */
  DICOM_AET: z
    .string()
    .trim()
    .regex(/^[\x20-\x5b\x5d-\x7e]{1,16}$/, 'must be 1-16 printable ASCII characters without backslash')
    .default('INBOX'),
  /** The HL7 v2 MLLP listener's port; unset: no listener. 0 picks a free port (tests). */
  HL7_PORT: portSchema.optional(),
  /** The largest HL7 message read; a larger one is answered AR and its connection closed. */
  HL7_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  /** An HL7 connection that sends nothing for this long is closed. */
  HL7_IDLE_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** HL7 connections held at once, and from one address: past either, new ones are closed at once. */
  HL7_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(10_000).default(50),
  HL7_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(4),
  /**
   * A message must arrive whole within this time of its first byte (bytes trickled meanwhile do not
   * extend it), else its connection is closed.
   */
  HL7_MESSAGE_DEADLINE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Imaging Inbox <no-reply@imaging-inbox.local>'),
  PUBLIC_URL: z.string().url().optional(),
  DEMO_PASSWORD: z.string().min(1).optional(),
  SEED_DEMO: z.enum(['0', '1']).default('1'),
  DEMO_SSO: z.enum(['0', '1', 'saml']).default('0'),
  SEED_STUDIES: z.coerce.number().int().min(0).max(100_000).default(40),
  SEED_NOMINATIONS: z.enum(['0', '1']).default('1'),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(MAX_UPLOAD_BYTES),
  /** Resumable uploads: an untouched session (and its temp file) expires after this long. */
  UPLOAD_SESSION_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(24 * 60),
  /** Bytes one sign-in session or link grant may have in unfinished uploads. */
  UPLOAD_SESSION_OWNER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(8 * 1024 ** 3),
  /** Bytes all unfinished uploads together may take (DATA_DIR/uploads, or uploads/ in the bucket). */
  UPLOAD_TEMP_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024 ** 3),
  /** A study received over DICOM is mailed about once nothing arrived for it for this long. */
  HARVEST_MAIL_QUIET_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Wait before a mail's first retry after SMTP refused it or was unreachable; doubles each time. */
  MAIL_RETRY_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** A study that arrived by upload or C-STORE is routed once nothing arrived for it for this long. */
  ROUTING_QUIET_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** First delay before a failed webhook delivery is tried again (doubling each time). */
  WEBHOOK_RETRY_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /**
   * How long one webhook delivery attempt may take in all (connect, headers, body): an endpoint
   * answering slower fails the attempt, which is retried like any other failure.
   */
  WEBHOOK_DEADLINE_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /**
   * Hosts, addresses or CIDR ranges a webhook may reach although they are loopback, link-local or
   * private (comma-separated); everything else of that kind is refused.
   */
  WEBHOOK_ALLOWED_HOSTS: hostList(),
  /**
   * The host names, addresses and CIDR ranges PACS destinations may be at although they are
   * loopback, link-local or private (comma-separated); everything else of that kind is refused, at
   * save time and at every connection, as for webhooks (decision 0054).
   */
  DICOM_ALLOWED_HOSTS: hostList(),
  /** First delay before a push sends again what a PACS did not store (doubling each time). */
  PUSH_RETRY_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
  /**
   * How long a push to a destination with storage commitment waits for the PACS's report, in
   * seconds, when the destination sets no timeout of its own (decision 0064).
   */
  STORAGE_COMMITMENT_TIMEOUT_S: z.coerce.number().int().min(1).max(86_400).default(600),
  /**
   * How long a claimed job is this process's: renewed every third of it while the job runs, so
   * only a process that died (or lost the database) lets it run out, and another process then
   * takes the job over.
   */
  JOB_LEASE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(5 * 60_000),
  /** How often destinations due for their automatic C-ECHO are looked for. */
  DESTINATION_ECHO_TICK_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  /** Delivery attempts before a mail is recorded as failed (8 at the default spans about an hour). */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /**
   * Jobs of one kind this process runs at once, as `kind=n,kind=n` (e.g. `study.send=2`); kinds
   * not named keep their default (1). Each kind has its own slots, so mail never waits behind a send.
   */
  JOB_CONCURRENCY: z
    .string()
    .regex(
      /^\s*[a-z][a-z0-9_.-]*=[1-9]\d?\s*(,\s*[a-z][a-z0-9_.-]*=[1-9]\d?\s*)*$/,
      'must be kind=n,… (n 1-99)',
    )
    .transform((v) =>
      Object.fromEntries(
        v.split(',').map((pair) => {
          const [kind, n] = pair.split('=');
          return [kind!.trim(), Number(n)];
        }),
      ),
    )
    .optional(),
  /** Names this process in /healthz, /readyz, /metrics and logs (default: host name and pid). */
  PROCESS_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1-64 letters, digits or _ . : -')
    .optional(),
  /** After SIGTERM, how long /readyz answers 503 while requests are still served, before the stop. */
  DRAIN_SECONDS: z.coerce.number().int().min(0).max(600).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  /**
   * Addresses (comma-separated IPs or CIDRs, or `loopback`) of reverse proxies whose
   * X-Forwarded-For and X-Forwarded-Proto are believed; unset: none.
   */
  /** 1 serves the outbox page /dev/outbox (to loopback clients, without SMTP_URL); npm start sets it. */
  DEV_OUTBOX: z.enum(['0', '1']).default('0'),
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^[\w.:/, -]+$/, 'must be addresses or CIDRs separated by commas, or loopback')
    .optional(),
  /**
   * The bearer token /metrics asks of a client that is not on loopback (unset: loopback only).
   * At least 16 characters.
   */
  METRICS_TOKEN: z.string().trim().min(16, 'at least 16 characters').optional(),
  /**
   * The de-identification master key (decision 0067): every account's pseudonym secret derives
   * from it. Kept outside the database; every server process of one installation reads the same.
   */
  DEIDENTIFICATION_KEY_FILE: z.string().min(1).optional(),
  ...ATNA_ENV,
});

/** Every variable the server reads from its environment: the README's configuration table lists each. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** The object store behind BLOB_STORE=s3://…; without credentials the AWS SDK's own chain finds them. */
export interface S3Location {
  bucket: string;
  /** Key prefix inside the bucket ('' or ending in '/'). */
  prefix: string;
  endpoint: string | undefined;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  blobDir: string;
  /** Set when BLOB_STORE names an object store; blobDir is then unused. */
  s3: S3Location | undefined;
  blobGraceMs: number;
  /** BLOB_DIRECTORIES_AHEAD: a file store makes its blob directories ahead of use. */
  blobDirectoriesAhead: boolean;
  databaseUrl: string | undefined;
  dicomPort: number;
  dicomAet: string;
  dicomTimeouts: { artimMs: number; idleMs: number };
  dicomMaxConnections: number;
  /** The DICOM TLS listener (decision 0065): off when undefined. */
  dicomTls: { port: number; certFile: string; keyFile: string; caFile: string | undefined } | undefined;
  /** The HL7 v2 MLLP listener: off when `port` is undefined. */
  hl7: {
    port: number | undefined;
    maxMessageBytes: number;
    idleMs: number;
    maxConnections: number;
    maxConnectionsPerAddress: number;
    messageDeadlineMs: number;
  };
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  demoPassword: string | undefined;
  seedDemo: boolean;
  /** DEMO_SSO=1 (OpenID Connect) or saml: a local identity provider for the demo account (docs/sso.md). */
  demoSso: 'oidc' | 'saml' | undefined;
  seedStudies: number;
  /** The demo's PACS Intake filled through the gatekeeper workflow (else placed there directly). */
  seedNominations: boolean;
  sessionIdleSeconds: number;
  uploadMaxBytes: number;
  uploadSessionTtlMs: number;
  uploadSessionOwnerBytes: number;
  uploadTempMaxBytes: number;
  harvestMailQuietMs: number;
  mailRetryMs: number;
  pushRetryMs: number;
  /** Default wait for a storage commitment report, in seconds (a destination may set its own). */
  storageCommitmentTimeoutS: number;
  jobLeaseMs: number;
  routingQuietMs: number;
  webhookRetryMs: number;
  webhookDeadlineMs: number;
  webhookAllowedHosts: string[];
  dicomAllowedHosts: string[];
  destinationEchoTickMs: number;
  mailMaxAttempts: number;
  jobConcurrency: Record<string, number>;
  processId: string;
  /** PROCESS_ID was set: the id survives a restart, so the run marker is named by it. */
  processIdFixed: boolean;
  drainMs: number;
  logLevel: string;
  webDist: string | undefined;
  trustProxy: string | undefined;
  /** What `Authorization: Bearer …` must say for /metrics off loopback; unset: loopback only. */
  metricsToken: string | undefined;
  /** The de-identification master key's file (decision 0067), made at first use when missing. */
  deidentificationKeyFile: string;
  devOutbox: boolean;
  /** The security team's syslog collector (decision 0068): off when undefined. */
  atna: AtnaConfig | undefined;
}

export class ConfigError extends Error {}

/** The TLS listener's settings: all of port, certificate and key, or none (a CA alone is an error too). */
function dicomTls(e: z.infer<typeof envSchema>): Config['dicomTls'] {
  const given = [e.DICOM_TLS_PORT, e.DICOM_TLS_CERT_FILE, e.DICOM_TLS_KEY_FILE, e.DICOM_TLS_CA_FILE];
  if (given.every((v) => v === undefined)) return undefined;
  if (e.DICOM_TLS_PORT === undefined || !e.DICOM_TLS_CERT_FILE || !e.DICOM_TLS_KEY_FILE) {
    throw new ConfigError(
      'Invalid configuration:\n  DICOM_TLS_PORT, DICOM_TLS_CERT_FILE and DICOM_TLS_KEY_FILE go together',
    );
  }
  return {
    port: e.DICOM_TLS_PORT,
    certFile: path.resolve(e.DICOM_TLS_CERT_FILE),
    keyFile: path.resolve(e.DICOM_TLS_KEY_FILE),
    caFile: e.DICOM_TLS_CA_FILE ? path.resolve(e.DICOM_TLS_CA_FILE) : undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings are treated as unset, as shells often export VAR= to clear a value.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    blobDir: e.BLOB_STORE?.startsWith('file://')
      ? path.resolve(decodeURIComponent(new URL(e.BLOB_STORE).pathname))
      : path.resolve(e.BLOB_DIR ?? path.join(e.DATA_DIR, 'blobs')),
    s3: s3Location(e),
    blobGraceMs: e.BLOB_GRACE_SECONDS * 1000,
    blobDirectoriesAhead: e.BLOB_DIRECTORIES_AHEAD === '1',
    databaseUrl: e.DATABASE_URL,
    dicomPort: e.DICOM_PORT,
    dicomAet: e.DICOM_AET,
    dicomTimeouts: { artimMs: e.DICOM_ARTIM_MS, idleMs: e.DICOM_IDLE_MS },
    dicomMaxConnections: e.DICOM_MAX_CONNECTIONS,
    dicomTls: dicomTls(e),
    hl7: {
      port: e.HL7_PORT,
      maxMessageBytes: e.HL7_MAX_MESSAGE_BYTES,
      idleMs: e.HL7_IDLE_MS,
      maxConnections: e.HL7_MAX_CONNECTIONS,
      maxConnectionsPerAddress: e.HL7_MAX_CONNECTIONS_PER_ADDRESS,
      messageDeadlineMs: e.HL7_MESSAGE_DEADLINE_MS,
    },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/$/, ''),
    demoPassword: e.DEMO_PASSWORD,
    seedDemo: e.SEED_DEMO === '1',
    demoSso: e.DEMO_SSO === '1' ? 'oidc' : e.DEMO_SSO === 'saml' ? 'saml' : undefined,
    seedStudies: e.SEED_STUDIES,
    seedNominations: e.SEED_NOMINATIONS === '1',
    sessionIdleSeconds: e.SESSION_IDLE_MINUTES * 60,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    uploadSessionTtlMs: e.UPLOAD_SESSION_TTL_MINUTES * 60_000,
    uploadSessionOwnerBytes: e.UPLOAD_SESSION_OWNER_BYTES,
    uploadTempMaxBytes: e.UPLOAD_TEMP_MAX_BYTES,
    harvestMailQuietMs: e.HARVEST_MAIL_QUIET_MS,
    mailRetryMs: e.MAIL_RETRY_MS,
    pushRetryMs: e.PUSH_RETRY_MS,
    storageCommitmentTimeoutS: e.STORAGE_COMMITMENT_TIMEOUT_S,
    jobLeaseMs: e.JOB_LEASE_MS,
    routingQuietMs: e.ROUTING_QUIET_MS,
    webhookRetryMs: e.WEBHOOK_RETRY_MS,
    webhookDeadlineMs: e.WEBHOOK_DEADLINE_MS,
    webhookAllowedHosts: e.WEBHOOK_ALLOWED_HOSTS,
    dicomAllowedHosts: e.DICOM_ALLOWED_HOSTS,
    destinationEchoTickMs: e.DESTINATION_ECHO_TICK_MS,
    mailMaxAttempts: e.MAIL_MAX_ATTEMPTS,
    jobConcurrency: e.JOB_CONCURRENCY ?? {},
    processId: e.PROCESS_ID ?? `${os.hostname()}-${process.pid}`,
    processIdFixed: e.PROCESS_ID !== undefined,
    drainMs: e.DRAIN_SECONDS * 1000,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    deidentificationKeyFile: path.resolve(
      e.DEIDENTIFICATION_KEY_FILE ?? path.join(e.DATA_DIR, 'deidentification.key'),
    ),
    devOutbox: e.DEV_OUTBOX === '1',
    atna: atnaConfig(e, (message) => new ConfigError(`Invalid configuration:\n  ${message}`)),
  };
}

function s3Location(e: z.infer<typeof envSchema>): S3Location | undefined {
  if (!e.BLOB_STORE?.startsWith('s3://')) return undefined;
  const rest = e.BLOB_STORE.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const trimmed = slash < 0 ? '' : rest.slice(slash + 1).replace(/^\/+|\/+$/g, '');
  if ((e.AWS_ACCESS_KEY_ID === undefined) !== (e.AWS_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together',
    );
  }
  return {
    bucket,
    prefix: trimmed ? `${trimmed}/` : '',
    endpoint: e.S3_ENDPOINT,
    region: e.AWS_REGION,
    credentials:
      e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY }
        : undefined,
  };
}
