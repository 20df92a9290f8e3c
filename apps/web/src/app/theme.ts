import { createTheme } from '@mui/material/styles';

import { TABLE_HEADER_HEIGHT, TABLE_ROW_HEIGHT } from '../components/table-sizes';

const PRIMARY = '#1565c0';

/**
 * The keyboard's focus, on every control: a primary outline with a white ring inside it, seen on
 * white pages, on the blue top bar and around contained buttons alike (WCAG 2.4.7).
 */
export const FOCUS_RING = { outline: `2px solid ${PRIMARY}`, outlineOffset: 2, boxShadow: '0 0 0 2px #fff' };

const INSET_FOCUS_RING = { outline: `2px solid ${PRIMARY}`, outlineOffset: -2, boxShadow: 'none' };

export const theme = createTheme({
  palette: { primary: { main: PRIMARY }, secondary: { main: '#00838f' } },
  shape: { borderRadius: 6 },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } } },
    // A focused field keeps its thicker border and gets a ring as well.
    MuiOutlinedInput: {
      styleOverrides: { root: { '&.Mui-focused': { boxShadow: `0 0 0 3px ${PRIMARY}40` } } },
    },
    // Links and other focusable elements that are not MUI buttons.
    MuiCssBaseline: {
      styleOverrides: {
        'a:focus-visible, [tabindex]:not([tabindex="-1"]):not(.MuiButtonBase-root):focus-visible': FOCUS_RING,
      },
    },
    // A disabled field's helper text says why it is disabled: it stays readable (WCAG 1.4.3).
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }),
      },
    },
    // Tabs, list and menu items sit in boxes that clip what is drawn outside them: their ring is inside.
    MuiTab: { styleOverrides: { root: { '&.Mui-focusVisible': INSET_FOCUS_RING } } },
    MuiListItemButton: { styleOverrides: { root: { '&.Mui-focusVisible': INSET_FOCUS_RING } } },
    MuiMenuItem: { styleOverrides: { root: { '&.Mui-focusVisible': INSET_FOCUS_RING } } },
    // Every table of the product: a row's height is its minimum, so a wrapped cell still grows it.
    MuiTableRow: {
      styleOverrides: {
        root: { height: TABLE_ROW_HEIGHT },
        head: { height: TABLE_HEADER_HEIGHT },
      },
    },
  },
});
