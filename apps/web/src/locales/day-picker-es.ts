import { es } from 'react-day-picker/locale/es';

/** The date picker's Spanish months, weekdays and button labels, loaded with Spanish only. */
export default es;
