import {
  DESTINATION_NAME_MAX_LENGTH,
  isAeTitle,
  STORAGE_COMMITMENT_TIMEOUT_MAX,
  type Destination,
} from '@imaging-inbox/contract';

/** The destination form's values, as typed. */
export interface DestinationForm {
  name: string;
  aetitle: string;
  address: string;
  port: string;
  can_search: boolean;
  can_search_mwl: boolean;
  can_push: boolean;
  c_echo_interval: string;
  /** Ask the PACS for storage commitment after a push (decision 0064). */
  storage_commitment: boolean;
  /** Seconds to wait for its report; empty: the server's default. */
  storage_commitment_timeout: string;
  /** DICOM over TLS (decision 0065) and its PEM texts; the key is never shown, empty keeps it. */
  tls: boolean;
  tls_ca: string;
  tls_cert: string;
  tls_key: string;
  /** The de-identification profile every push applies ('' : none; decision 0071). */
  anonymization_id: string;
}

export const EMPTY_FORM: DestinationForm = {
  name: '',
  aetitle: '',
  address: '',
  port: '104',
  // Many PACS (and every plain storage SCP) take pushes but no C-FIND: searching is ticked on purpose.
  can_search: false,
  can_search_mwl: false,
  can_push: true,
  c_echo_interval: '',
  storage_commitment: false,
  storage_commitment_timeout: '',
  tls: false,
  tls_ca: '',
  tls_cert: '',
  tls_key: '',
  anonymization_id: '',
};

export function formOf(d: Destination): DestinationForm {
  return {
    name: d.name,
    aetitle: d.aetitle,
    address: d.address,
    port: String(d.port),
    can_search: d.can_search === 1,
    can_search_mwl: d.can_search_mwl === 1,
    can_push: d.can_push === 1,
    c_echo_interval: d.c_echo_interval === null ? '' : String(d.c_echo_interval),
    storage_commitment: d.storage_commitment === 1,
    storage_commitment_timeout:
      d.storage_commitment_timeout === null ? '' : String(d.storage_commitment_timeout),
    tls: d.tls === 1,
    tls_ca: d.tls_ca ?? '',
    tls_cert: d.tls_cert ?? '',
    tls_key: '',
    anonymization_id: d.anonymization_id ?? '',
  };
}

/** What the form can tell before asking the server (which checks everything again). */
export function formProblems(form: DestinationForm): Partial<Record<keyof DestinationForm, string>> {
  const problems: Partial<Record<keyof DestinationForm, string>> = {};
  const name = form.name.trim();
  if (!name) problems.name = 'Name is required';
  else if (name.length > DESTINATION_NAME_MAX_LENGTH) problems.name = 'At most 100 characters';
  if (!isAeTitle(form.aetitle.trim()))
    problems.aetitle = '1 to 16 characters, printable ASCII without backslash';
  if (!form.address.trim()) problems.address = 'Address is required';
  const port = Number(form.port);
  if (!/^\d+$/.test(form.port.trim()) || port < 1 || port > 65535) problems.port = 'A port from 1 to 65535';
  if (form.c_echo_interval.trim() && !/^\d+$/.test(form.c_echo_interval.trim())) {
    problems.c_echo_interval = 'Seconds, or empty for never';
  }
  const timeout = form.storage_commitment_timeout.trim();
  if (timeout && (!/^\d+$/.test(timeout) || Number(timeout) > STORAGE_COMMITMENT_TIMEOUT_MAX)) {
    problems.storage_commitment_timeout = 'Seconds up to a day, or empty for the default';
  }
  return problems;
}

/** The form as destination/add and destination/set take it. */
export function formParams(form: DestinationForm) {
  return {
    name: form.name.trim(),
    aetitle: form.aetitle.trim(),
    address: form.address.trim(),
    port: form.port.trim(),
    can_search: form.can_search ? 1 : 0,
    can_search_mwl: form.can_search_mwl ? 1 : 0,
    can_push: form.can_push ? 1 : 0,
    c_echo_interval: form.c_echo_interval.trim() || '0',
    storage_commitment: form.storage_commitment ? 1 : 0,
    storage_commitment_timeout: form.storage_commitment_timeout.trim() || '0',
    anonymization_id: form.anonymization_id,
    ...tlsParams(form),
  };
}

/**
 * The TLS fields as sent: the key only when typed (an empty key field keeps the stored one),
 * except that removing the certificate removes its key too.
 */
function tlsParams(form: DestinationForm) {
  const key = form.tls_key.trim();
  const cert = form.tls_cert.trim();
  return {
    tls: form.tls ? 1 : 0,
    tls_ca: form.tls_ca.trim(),
    tls_cert: cert,
    ...(key ? { tls_key: key } : cert ? {} : { tls_key: '' }),
  };
}
