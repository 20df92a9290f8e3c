import { createTheme } from '@mui/material/styles';

import { TABLE_HEADER_HEIGHT, TABLE_ROW_HEIGHT } from '../components/table-sizes';

export const theme = createTheme({
  palette: { primary: { main: '#1565c0' }, secondary: { main: '#00838f' } },
  shape: { borderRadius: 6 },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    // Every table of the product: a row's height is its minimum, so a wrapped cell still grows it.
    MuiTableRow: {
      styleOverrides: {
        root: { height: TABLE_ROW_HEIGHT },
        head: { height: TABLE_HEADER_HEIGHT },
      },
    },
  },
});
