import { esES } from '@mui/material/locale';

/** MUI's own Spanish texts (table pagination, autocomplete, alerts), loaded with Spanish only. */
export default esES;
