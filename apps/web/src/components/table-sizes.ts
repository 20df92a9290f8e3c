/**
 * Product table sizes (SPEC.md section 9, "Table header 50, row 45, max table height 455"): a table
 * shows its header and nine rows, then scrolls under its header. The row heights are the theme's
 * rule for every table (`app/theme.ts`), the maximum is `ScrollTable`'s (decision 0045).
 */
export const TABLE_HEADER_HEIGHT = 50;
export const TABLE_ROW_HEIGHT = 45;
export const TABLE_MAX_HEIGHT = 455;
