import type { StaffUser } from "@/lib/session";
import { isStaffRole } from "@/lib/staff-roles";

/** The local-storage entry of the signed-in user (spec §3): id, name and role.
 * The access key is never kept in the browser; the session is an HttpOnly cookie. */
export const AUTH_STORAGE_KEY = "auth_user";

/** The user in a stored entry, or `null` when it is missing or corrupt. */
export function parseStoredUser(raw: string | null): StaffUser | null {
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { id, name, role } = value as Record<string, unknown>;
  if (typeof id !== "string" || id === "") return null;
  if (typeof name !== "string") return null;
  if (!isStaffRole(role)) return null;
  return { id, name, role };
}

/** The entry for a user: only the three public fields, whatever else it carries. */
export function serializeUser(user: StaffUser): string {
  const { id, name, role } = user;
  return JSON.stringify({ id, name, role });
}

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

// Storage can throw (disabled cookies, private modes, a full quota); the
// session then simply lasts as long as the page.

/** Reads the stored user, removing an entry that cannot be used. */
export function readStoredUser(storage: Store): StaffUser | null {
  try {
    const raw = storage.getItem(AUTH_STORAGE_KEY);
    const user = parseStoredUser(raw);
    if (raw !== null && user === null) storage.removeItem(AUTH_STORAGE_KEY);
    return user;
  } catch {
    return null;
  }
}

export function writeStoredUser(storage: Store, user: StaffUser | null): void {
  try {
    if (user) storage.setItem(AUTH_STORAGE_KEY, serializeUser(user));
    else storage.removeItem(AUTH_STORAGE_KEY);
  } catch {
    // See above: nothing to keep it in.
  }
}
