import type {
  GroupScannerValidateAnswer,
  GroupScannerValidateRequest,
  ScannerProblem,
} from '@imaging-inbox/contract';
import { hostMatches, normalizeIp } from '../../dimse/sender-host.js';
import type { Caller } from '../../policies/index.js';
import { requireAdministered } from '../../policies/index.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { DicomNodesRepository } from '../../repositories/dicom-nodes.repository.js';

interface Deps {
  nodes: Pick<DicomNodesRepository, 'findAnyByAeTitle' | 'findLocalAe'>;
  accounts: Pick<AccountsRepository, 'findGroup'>;
  /** This server's own AE title (DICOM_AET). */
  ourAeTitle: string;
}

/**
 * group/scanner/validate: would a scanner calling as this AE title, from this address, to this
 * called AE title, have its images filed in the group? Answered by the rules the DICOM listener
 * (dimse/scp.ts) applies to an association, one problem per rule broken; it writes nothing.
 * For the group's account admins, as its DICOM nodes are: anyone else does not find the group.
 */
export class ScannerValidationService {
  constructor(private readonly deps: Deps) {}

  async validate(caller: Caller, input: GroupScannerValidateRequest): Promise<GroupScannerValidateAnswer> {
    const group = requireAdministered(caller, await this.deps.accounts.findGroup(input.uuid), 'group');
    const ours = this.deps.ourAeTitle;
    const called = input.called_ae_title ?? ours;
    const problems: ScannerProblem[] = [];

    if (group.type !== 'CLOUD')
      problems.push({
        field: 'uuid',
        reason: `a scanner delivers only into a cloud group; ${group.name} is ${group.type}`,
      });
    if (called !== ours) {
      const local = await this.deps.nodes.findLocalAe(called);
      if (!local || local.account_id !== group.account_id)
        problems.push({
          field: 'called_ae_title',
          reason: `${called} is not an AE title of this server for this account`,
        });
      else if (local.group_uuid !== group.uuid)
        problems.push({
          field: 'called_ae_title',
          reason: `${called} files what it receives in another group`,
        });
    }

    let node = null;
    if (input.ae_title === ours) {
      problems.push({ field: 'ae_title', reason: `${ours} is the AE title of this server` });
    } else {
      const found = await this.deps.nodes.findAnyByAeTitle(input.ae_title);
      // Another account's sender is no more found than none (its AE title is not this account's to know).
      node = found && found.account_id === group.account_id ? found : null;
      if (!node) {
        problems.push({
          field: 'ae_title',
          reason: `no DICOM node of this account has the AE title ${input.ae_title}: register the scanner with dicom/node/add`,
        });
      } else {
        if (called === ours && node.group_uuid === null)
          problems.push({
            field: 'ae_title',
            reason: `${node.ae_title} is a destination's PACS: it delivers only what is retrieved`,
          });
        else if (called === ours && node.group_uuid !== group.uuid)
          problems.push({
            field: 'uuid',
            reason: `${node.ae_title} delivers into ${node.group_name ?? 'another group'}`,
          });
        if (input.host !== undefined && !hostMatches(node.host, normalizeIp(input.host)))
          problems.push({ field: 'host', reason: `${node.ae_title} is accepted only from ${node.host}` });
      }
    }

    return {
      valid: problems.length ? 0 : 1,
      group: { uuid: group.uuid, name: group.name, type: group.type },
      called_ae_title: called,
      node: node && {
        uuid: node.uuid,
        name: node.name,
        ae_title: node.ae_title,
        host: node.host,
        group_id: node.group_uuid,
        group_name: node.group_name,
      },
      problems,
    };
  }
}
