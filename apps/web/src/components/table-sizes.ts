/**
 * Product table sizes (SPEC.md section 9, "Table header 50, row 45, max table height 455"): a table
 * shows its header and nine rows, then scrolls under its header.
 */
export const TABLE_HEADER_HEIGHT = 50;
export const TABLE_ROW_HEIGHT = 45;
export const TABLE_MAX_HEIGHT = 455;

/**
 * The header row and the body rows of a `<Table>` inside at the spec's heights. A row height is a
 * least height: a cell whose text wraps grows its row rather than cutting it.
 */
export const TABLE_ROWS_SX = {
  '& thead tr': { height: TABLE_HEADER_HEIGHT },
  '& tbody tr': { height: TABLE_ROW_HEIGHT },
} as const;
