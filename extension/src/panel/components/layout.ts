/** Height of every list row in px; panel.css sizes rows with the same number. */
export const ROW_HEIGHT = 22;
