import { queryOptions } from "@tanstack/react-query";
import {
  fetchViewStats,
  listMagazines,
  packUsage,
  listStaff,
  listStaffPacks,
} from "./admin";
import { staffKeys } from "./keys";
import { getNotices, listReviewQueue } from "./newsroom";
import { getProfile } from "./profiles";
import { listArticles, listWriters } from "./staff-articles";

export const staffArticlesQuery = () =>
  queryOptions({
    queryKey: staffKeys.articles,
    queryFn: ({ signal }) => listArticles(signal),
  });

export const writersQuery = () =>
  queryOptions({
    queryKey: staffKeys.writers,
    queryFn: ({ signal }) => listWriters(signal),
  });

export const magazinesQuery = () =>
  queryOptions({
    queryKey: staffKeys.magazines,
    queryFn: ({ signal }) => listMagazines(signal),
  });

export const staffMembersQuery = () =>
  queryOptions({
    queryKey: staffKeys.members,
    queryFn: ({ signal }) => listStaff(signal),
  });

export const viewStatsQuery = (timeZone: string) =>
  queryOptions({
    queryKey: staffKeys.stats(timeZone),
    queryFn: ({ signal }) => fetchViewStats(timeZone, signal),
  });

export const staffPacksQuery = () =>
  queryOptions({
    queryKey: staffKeys.packs,
    queryFn: ({ signal }) => listStaffPacks(signal),
  });

export const packUsageQuery = () =>
  queryOptions({
    queryKey: staffKeys.packUsage,
    queryFn: ({ signal }) => packUsage(signal),
  });

export const reviewQueueQuery = () =>
  queryOptions({
    queryKey: staffKeys.reviewQueue,
    queryFn: ({ signal }) => listReviewQueue(signal),
  });

export const profileQuery = (member: string | null) =>
  queryOptions({
    queryKey: staffKeys.profile(member ?? "me"),
    queryFn: ({ signal }) => getProfile(member, signal),
  });

export const noticesQuery = () =>
  queryOptions({
    queryKey: staffKeys.notices,
    queryFn: ({ signal }) => getNotices(signal),
  });
