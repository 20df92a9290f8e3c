/**
 * RFC 5424 syslog messages as IHE ITI-20 (Record Audit Event) wants them: PRI 85 (facility 10,
 * security/authorization; severity 5, notice), version 1, the event's time, our host, APP-NAME,
 * PROCID, MSGID "IHE+DICOM", no structured data, and the XML as a UTF-8 MSG with its BOM.
 */

const PRI = '<85>';
const MSGID = 'IHE+DICOM';
const BOM = '\uFEFF';

export interface SyslogHeader {
  /** HOSTNAME: this host, printable ASCII without spaces. */
  hostname: string;
  appName: string;
  procId: string;
}

/** A header field as RFC 5424 allows it: printable US-ASCII without space, at most `max` long, "-" when empty. */
export function headerField(value: string, max: number): string {
  const clean = value.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return clean || '-';
}

/** The RFC 5424 message (without transport framing) of one audit message. */
export function syslogMessage(header: SyslogHeader, at: number, xml: string): Buffer {
  const head = [
    `${PRI}1`,
    new Date(at).toISOString(),
    headerField(header.hostname, 255),
    headerField(header.appName, 48),
    headerField(header.procId, 128),
    MSGID,
    '-',
  ].join(' ');
  return Buffer.from(`${head} ${BOM}${xml}`, 'utf8');
}

/** Octet-counting framing (RFC 5425 section 4.3 over TLS, RFC 6587 3.4.1 over TCP): "LEN SP MSG". */
export function octetCounted(message: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${message.length} `, 'ascii'), message]);
}
