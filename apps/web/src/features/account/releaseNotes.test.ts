import { RELEASE_NOTES_VERSION } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import { isOlderVersion, releaseNotesAction } from "./releaseNotes.ts";

describe("release notes (SPEC §4)", () => {
  it("current version is '1'", () => expect(RELEASE_NOTES_VERSION).toBe("1"));

  it("opens the modal for an older stored version, not for the current or a newer one", () => {
    expect(releaseNotesAction("0", false)).toBe("open");
    expect(releaseNotesAction("1", false)).toBe("none");
    expect(releaseNotesAction("2", false)).toBe("none");
  });

  it("acknowledges at once instead while onboarding", () => {
    expect(releaseNotesAction("0", true)).toBe("acknowledge");
    expect(releaseNotesAction("1", true)).toBe("none");
  });

  it("compares versions as numbers", () => {
    expect(isOlderVersion("9", "10")).toBe(true);
    expect(isOlderVersion("10", "9")).toBe(false);
    expect(isOlderVersion("", "1")).toBe(true);
  });
});
