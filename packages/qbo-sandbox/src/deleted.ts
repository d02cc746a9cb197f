/**
 * QuickBooks shows an inactive ("deleted") account or name with " (deleted)" after it: the
 * Account's Name and FullyQualifiedName (minimul-qbo_api/deactivate__account__0, "Fees Billed
 * (deleted)"), a name's DisplayName but not its PrintOnCheckName (all__employees_including_active__1,
 * "Emily Platt (deleted)"; get__inactive_vendors__0, "United States Treasury (deleted)"), and the
 * references that carry those names. The emulator keeps the plain name and adds the suffix when
 * rendering; an update that sends the shown name back (as deactivate__account__1 does) keeps the
 * plain one.
 */
export const DELETED_SUFFIX = " (deleted)";

export function shownName(name: string, active: boolean): string {
  return active ? name : `${name}${DELETED_SUFFIX}`;
}

export function withoutDeletedSuffix(name: string): string {
  return name.endsWith(DELETED_SUFFIX) ? name.slice(0, -DELETED_SUFFIX.length) : name;
}
