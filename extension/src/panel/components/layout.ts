/** Height of every list row in px; panel.css sizes rows with the same number. */
export const ROW_HEIGHT = 22;

/** The panel is docked at the side: panel.css stacks the panes at the same width. */
export const NARROW_LAYOUT = '(max-width: 600px)';
