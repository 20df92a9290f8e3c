import { createTheme } from '@mui/material/styles';

/** The spec's table sizes (SPEC.md section 9): header row 50 px, body row 45 px. */
export const TABLE_HEADER_HEIGHT = 50;
export const TABLE_ROW_HEIGHT = 45;

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
