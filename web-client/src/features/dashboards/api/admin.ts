import type { components } from "@/api/schema";
import { api, ApiFailure, errorMessage, expectOk } from "@/lib/api-client";
import type {
  IssuedKey,
  Magazine,
  StaffRecord,
  StaffRole,
  ViewStats,
} from "@/features/dashboards/types";

/**
 * Page-view figures, with "today" and the days counted in `timeZone`; in UTC
 * when the server does not know that zone (the answer names the zone used).
 */
export async function fetchViewStats(
  timeZone: string,
  signal?: AbortSignal,
): Promise<ViewStats> {
  const get = async (tz: string) =>
    expectOk(
      await api.GET("/v1/staff/stats", { params: { query: { tz } }, signal }),
    );
  try {
    return await get(timeZone);
  } catch (cause) {
    if (cause instanceof ApiFailure && cause.code === "unknown_time_zone") {
      return get("UTC");
    }
    throw cause;
  }
}

/** Uploaded issues, newest first. */
export async function listMagazines(signal?: AbortSignal): Promise<Magazine[]> {
  return expectOk(await api.GET("/v1/staff/magazines", { signal }));
}

export async function renameMagazine(
  id: string,
  title: string,
): Promise<Magazine> {
  return expectOk(
    await api.PATCH("/v1/staff/magazines/{id}", {
      params: { path: { id } },
      body: { title },
    }),
  );
}

export type IssuePublication = components["schemas"]["IssuePublication"];

/** Publishes an uploaded issue for readers (or changes a published one). */
export async function publishMagazine(
  id: string,
  body: IssuePublication,
): Promise<Magazine> {
  return expectOk(
    await api.PUT("/v1/staff/magazines/{id}/publication", {
      params: { path: { id } },
      body,
    }),
  );
}

/** Takes a published issue back to a private draft. */
export async function unpublishMagazine(id: string): Promise<Magazine> {
  return expectOk(
    await api.DELETE("/v1/staff/magazines/{id}/publication", {
      params: { path: { id } },
    }),
  );
}

/** Uploads a picture (an issue's cover, a contributor's photo); its public address. */
export async function uploadPicture(file: File): Promise<string> {
  const uploaded = expectOk(
    await api.POST("/v1/staff/covers", {
      // The contract types the binary part as a string; the browser sends the File.
      body: { file: file as unknown as string },
      bodySerializer: (body) => {
        const form = new FormData();
        form.append("file", body.file);
        return form;
      },
    }),
  );
  return uploaded.url;
}

export type AnnouncementPreview = components["schemas"]["AnnouncementPreview"];
export type AnnouncementProgress =
  components["schemas"]["AnnouncementProgress"];

/** The announcement of a published issue: the email, its recipients, how far a send got. */
export async function previewAnnouncement(
  id: string,
  signal?: AbortSignal,
): Promise<AnnouncementPreview> {
  return expectOk(
    await api.GET("/v1/staff/magazines/{id}/announcement", {
      params: { path: { id } },
      signal,
    }),
  );
}

/** Sends the announcement (once; asking again sends nothing new). */
export async function sendAnnouncement(
  id: string,
): Promise<AnnouncementProgress> {
  return expectOk(
    await api.POST("/v1/staff/magazines/{id}/announcement", {
      params: { path: { id } },
    }),
  );
}

export async function deleteMagazine(id: string): Promise<void> {
  expectOk(
    await api.DELETE("/v1/staff/magazines/{id}", { params: { path: { id } } }),
  );
}

/**
 * Uploads a PDF, reporting the share sent (0 to 1) as it goes. `fetch` cannot
 * report upload progress, so this one call uses XMLHttpRequest; the answer is
 * still the contract's `Magazine`, or an `ApiFailure` with the server's words.
 */
export function uploadMagazine(
  file: File,
  onProgress: (sent: number) => void,
): Promise<Magazine> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/v1/staff/magazines");
    request.responseType = "json";
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      const body: unknown = request.response;
      if (request.status >= 200 && request.status < 300) {
        resolve(body as Magazine);
      } else {
        reject(new ApiFailure(request.status, errorMessage(body)));
      }
    });
    request.addEventListener("error", () =>
      reject(new ApiFailure(0, "the connection failed")),
    );
    const form = new FormData();
    form.append("file", file);
    request.send(form);
  });
}

export async function listStaff(signal?: AbortSignal): Promise<StaffRecord[]> {
  return expectOk(await api.GET("/v1/staff/members", { signal }));
}

export async function addStaff(
  name: string,
  role: StaffRole,
): Promise<IssuedKey> {
  return expectOk(
    await api.POST("/v1/staff/members", { body: { name, role } }),
  );
}

export async function rotateStaffKey(id: string): Promise<IssuedKey> {
  return expectOk(
    await api.POST("/v1/staff/members/{id}/rotate-key", {
      params: { path: { id } },
    }),
  );
}

export async function setStaffActive(
  id: string,
  active: boolean,
): Promise<StaffRecord> {
  return expectOk(
    await api.PUT("/v1/staff/members/{id}/active", {
      params: { path: { id } },
      body: { active },
    }),
  );
}

export type Packs = components["schemas"]["Packs"];
export type PacksUsage = components["schemas"]["PacksUsage"];

/** The packs with their files, launched or not (admins). */
export async function listStaffPacks(signal?: AbortSignal): Promise<Packs> {
  return expectOk(await api.GET("/v1/staff/packs", { signal }));
}

/** The packs as readers see them: files only once launched. */
/** The packs with their downloads by staff (educator, admin). */
export async function packUsage(signal?: AbortSignal): Promise<PacksUsage> {
  return expectOk(await api.GET("/v1/staff/packs/usage", { signal }));
}

/** Where a pack is downloaded (and counted) from: the browser follows it. */
export const packDownloadHref = (id: string) =>
  `/api/v1/staff/packs/${encodeURIComponent(id)}/download`;

/** Uploads (or replaces) a pack's PDF. */
export async function uploadPack(id: string, file: File): Promise<Packs> {
  return expectOk(
    await api.PUT("/v1/staff/packs/{id}/file", {
      params: { path: { id } },
      // The contract types the binary part as a string; the browser sends the File.
      body: { file: file as unknown as string },
      bodySerializer: (body) => {
        const form = new FormData();
        form.append("file", body.file);
        return form;
      },
    }),
  );
}

/** Launches the packs: readers and educators download them from now on. */
export async function launchPacks(): Promise<Packs> {
  return expectOk(await api.POST("/v1/staff/packs/launch"));
}

export async function previewPacksAnnouncement(
  signal?: AbortSignal,
): Promise<AnnouncementPreview> {
  return expectOk(await api.GET("/v1/staff/packs/announcement", { signal }));
}

export async function sendPacksAnnouncement(): Promise<AnnouncementProgress> {
  return expectOk(await api.POST("/v1/staff/packs/announcement"));
}
