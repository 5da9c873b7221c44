import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { answer, stubApi } from "@/test/api";
import { mount, settle } from "@/test/query";
import {
  articlesChanged,
  magazinesChanged,
  packsChanged,
  staffChanged,
} from "./changes";
import {
  magazinesQuery,
  staffArticlesQuery,
  staffMembersQuery,
  staffPacksQuery,
  viewStatsQuery,
  writersQuery,
} from "./queries";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A dashboard with every staff list on screen. */
async function dashboard() {
  const api = stubApi(() => answer(200, []));
  const client = createQueryClient();
  mount(client, staffArticlesQuery());
  mount(client, writersQuery());
  mount(client, magazinesQuery());
  mount(client, staffMembersQuery());
  mount(client, staffPacksQuery());
  await settle();
  const count = (path: string) => api.to(path).length;
  return { client, count };
}

describe("staff changes", () => {
  it("an article change fetches the dashboard's articles again and tells the app", async () => {
    const { client, count } = await dashboard();
    expect(count("/v1/staff/articles")).toBe(1);
    const onPublicChange = vi.fn();
    await articlesChanged(client, onPublicChange);
    expect(count("/v1/staff/articles")).toBe(2);
    expect(onPublicChange).toHaveBeenCalledTimes(1);
    expect(count("/v1/staff/magazines")).toBe(1);
    expect(count("/v1/staff/members")).toBe(1);
  });

  it("a magazine change fetches the magazines again, nothing else", async () => {
    const { client, count } = await dashboard();
    await magazinesChanged(client);
    expect(count("/v1/staff/magazines")).toBe(2);
    expect(count("/v1/staff/articles")).toBe(1);
  });

  it("a magazine or packs change tells the app, for the public copies", async () => {
    const { client, count } = await dashboard();
    const onPublicChange = vi.fn();
    await magazinesChanged(client, onPublicChange);
    expect(onPublicChange).toHaveBeenCalledTimes(1);
    await packsChanged(client, onPublicChange);
    expect(onPublicChange).toHaveBeenCalledTimes(2);
    expect(count("/v1/staff/packs")).toBe(2);
    expect(count("/v1/staff/magazines")).toBe(2);
  });

  it("a change made while the first load is under way shows on the list", async () => {
    // The dashboard's first load read the list before an upload was stored,
    // and answers after the upload did.
    let answerFirstLoad: (value: Response) => void = () => {};
    const firstLoad = new Promise<Response>((resolve) => {
      answerFirstLoad = resolve;
    });
    let loads = 0;
    stubApi(({ path }) => {
      if (path !== "/v1/staff/magazines") return answer(200, []);
      loads += 1;
      return loads === 1
        ? firstLoad.then(() => answer(200, []))
        : answer(200, [{ id: "uploaded" }]);
    });
    const client = createQueryClient();
    const list = mount(client, magazinesQuery());
    await settle();
    const changed = magazinesChanged(client);
    answerFirstLoad(new Response());
    await changed;
    await settle();
    expect(list.result().data).toEqual([{ id: "uploaded" }]);
  });

  it("a staff change fetches the members and the writers again", async () => {
    const { client, count } = await dashboard();
    await staffChanged(client);
    expect(count("/v1/staff/members")).toBe(2);
    expect(count("/v1/staff/writers")).toBe(2);
    expect(count("/v1/staff/articles")).toBe(1);
  });
});

describe("staff queries", () => {
  it("take a 401 or 403 as final: asked once, no retry", async () => {
    for (const status of [401, 403]) {
      const api = stubApi(() =>
        answer(status, { code: "forbidden", message: "Not allowed." }),
      );
      const client = createQueryClient();
      const list = mount(client, staffArticlesQuery());
      await settle();
      expect(api.calls).toHaveLength(1);
      expect(list.result().status).toBe("error");
      expect(list.result().error?.message).toBe("Not allowed.");
      vi.restoreAllMocks();
    }
  });

  it("fall back to UTC when the server does not know the time zone", async () => {
    const api = stubApi(({ init }) =>
      init.params?.query?.tz === "UTC"
        ? answer(200, { time_zone: "UTC" })
        : answer(422, { code: "unknown_time_zone", message: "Unknown" }),
    );
    const client = createQueryClient();
    const stats = mount(client, viewStatsQuery("Mars/Olympus_Mons"));
    await settle();
    expect(api.calls.map((c) => c.init.params?.query?.tz)).toEqual([
      "Mars/Olympus_Mons",
      "UTC",
    ]);
    expect(stats.result().data).toEqual({ time_zone: "UTC" });
  });
});
