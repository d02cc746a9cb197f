import { createTheme, type MantineColorsTuple } from "@mantine/core";

/** A deep ledger blue: calm, high-contrast on white, and distinct from the red of the error bar. */
const ledger: MantineColorsTuple = [
  "#eef3fb",
  "#dbe4f3",
  "#b3c7e6",
  "#88a8d9",
  "#658ecf",
  "#4f7ec9",
  "#4376c7",
  "#3464b0",
  "#2b599e",
  "#1e4c8c",
];

export const theme = createTheme({
  primaryColor: "ledger",
  primaryShade: { light: 8, dark: 5 },
  colors: { ledger },
  fontFamily:
    'Inter, "Segoe UI", -apple-system, BlinkMacSystemFont, Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: "650" },
  defaultRadius: "md",
  focusRing: "auto",
  cursorType: "pointer",
});
