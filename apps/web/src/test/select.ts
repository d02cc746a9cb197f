import { waitFor, within } from "@testing-library/react";
import { expect } from "vitest";

/** The listbox a Mantine Select's input controls, once it is in the DOM (Mantine keeps every select's list there, hidden). */
export function listboxOf(input: HTMLElement): Promise<HTMLElement> {
  return waitFor(() => {
    const el = document.getElementById(input.getAttribute("aria-controls") ?? "");
    expect(el).not.toBeNull();
    return el!;
  });
}

/** The options of a Select. */
export async function optionsOf(input: HTMLElement): Promise<HTMLElement[]> {
  return within(await listboxOf(input)).getAllByRole("option", { hidden: true });
}

/** The options of a Select, as their texts. */
export async function optionTextsOf(input: HTMLElement): Promise<string[]> {
  return (await optionsOf(input)).map((o) => o.textContent ?? "");
}
