import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Accordion, AccordionDetails, AccordionSummary, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useInbox } from '../../session/inbox-context';
import { useGroupRoute } from '../../session/use-group-route';
import { groupDisplayName } from '../../session/groups';
import { GroupActions } from './GroupActions';
import { StudyStateList } from './StudyStateList';

/**
 * One accordion per group with its study states. Expanding a group opens /group/{uuid} (its first
 * state); collapsing the open one, leaving none expanded, goes to /group/list.
 */
export function GroupAccordion() {
  const { groups } = useInbox();
  const route = useGroupRoute();
  const navigate = useNavigate();
  const routedGroup = route?.kind === 'show' ? route.group.uuid : null;
  const [expanded, setExpanded] = useState<string | null>(routedGroup);

  useEffect(() => {
    if (routedGroup !== null && route?.kind === 'show' && !route.highlighted) setExpanded(routedGroup);
  }, [routedGroup, route]);

  return (
    <div>
      {groups.map((group) => {
        const isOpen = expanded === group.uuid;
        const summaryId = `group-${group.uuid}-summary`;
        return (
          <Accordion
            key={group.uuid}
            expanded={isOpen}
            disableGutters
            elevation={0}
            square
            sx={{ '&:before': { display: 'none' }, borderBottom: 1, borderColor: 'divider' }}
            onChange={(_event, open) => {
              setExpanded(open ? group.uuid : null);
              void navigate(open ? `/group/${encodeURIComponent(group.uuid)}` : '/group/list');
            }}
          >
            <AccordionSummary
              expandIcon={<ExpandMore />}
              id={summaryId}
              aria-controls={`group-${group.uuid}-states`}
            >
              <Typography sx={{ fontWeight: 500 }}>{groupDisplayName(group)}</Typography>
            </AccordionSummary>
            <AccordionDetails id={`group-${group.uuid}-states`} sx={{ p: 0, pb: 1 }}>
              <StudyStateList group={group} />
              <GroupActions group={group} />
            </AccordionDetails>
          </Accordion>
        );
      })}
    </div>
  );
}
