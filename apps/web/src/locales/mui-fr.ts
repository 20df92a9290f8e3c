import { frFR } from '@mui/material/locale';

/** MUI's own French texts (table pagination, autocomplete, alerts), loaded with French only. */
export default frFR;
