/** Badges never truncate their label: a table column grows to fit it instead. */
export const fullLabel = { root: { flexShrink: 0, overflow: "visible" }, label: { overflow: "visible" } } as const;
