import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: { primary: { main: '#1565c0' }, secondary: { main: '#00838f' } },
  shape: { borderRadius: 6 },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
  },
});
