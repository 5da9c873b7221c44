import type { components } from "@/api/schema";
import { api, expectOk } from "@/lib/api-client";

export type Profile = components["schemas"]["ProfileSettings"];
export type ProfileChange = components["schemas"]["ProfileChange"];

/** A contributor's profile: the signed-in member's (`member` null) or a member's. */
export async function getProfile(
  member: string | null,
  signal?: AbortSignal,
): Promise<Profile> {
  return expectOk(
    member === null
      ? await api.GET("/v1/staff/me/profile", { signal })
      : await api.GET("/v1/staff/members/{id}/profile", {
          params: { path: { id: member } },
          signal,
        }),
  );
}

/** Saves a contributor's profile; resolves to it as now shown. */
export async function setProfile(
  member: string | null,
  change: ProfileChange,
): Promise<Profile> {
  return expectOk(
    member === null
      ? await api.PUT("/v1/staff/me/profile", { body: change })
      : await api.PUT("/v1/staff/members/{id}/profile", {
          params: { path: { id: member } },
          body: change,
        }),
  );
}
