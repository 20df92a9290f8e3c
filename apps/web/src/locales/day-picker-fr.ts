import { fr } from 'react-day-picker/locale/fr';

/** The date picker's French months, weekdays and button labels, loaded with French only. */
export default fr;
