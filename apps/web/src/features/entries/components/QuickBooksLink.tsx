import { IconExternalLink } from "@tabler/icons-react";

/** The mark after a link that opens in a new tab (QuickBooks, the emulator's journal view). */
export const NewTab = () => <IconExternalLink size={12} style={{ verticalAlign: "-1px" }} aria-label="(opens in a new tab)" />;
