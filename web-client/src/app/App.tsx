import type { QueryClient } from "@tanstack/react-query";
import { Router } from "wouter";
import { Layout } from "@/components/Layout";
import { usePrefetchingLocation, useNavigationWaiting } from "./navigation";
import type { PageData } from "./page-data";
import { AppProviders } from "./providers";
import { usePageViewBeacon } from "./page-view-beacon";
import { AppRoutes } from "./routes";

interface AppProps {
  data: PageData;
  /** Holds the server's data for the page already (see seedQueryCache). */
  queryClient: QueryClient;
  /** Server rendering only: the request's path and query (without "?"). */
  ssrPath?: string;
  ssrSearch?: string;
}

export function App({ data, queryClient, ssrPath, ssrSearch }: AppProps) {
  const routerProps =
    ssrPath === undefined ? {} : { ssrPath, ssrSearch: ssrSearch ?? "" };
  return (
    <AppProviders
      site={data.site}
      reader={data.reader === true}
      queryClient={queryClient}
    >
      <Router hook={usePrefetchingLocation} {...routerProps}>
        <Layout>
          <PageViewBeacon />
          <NavigationProgress />
          <AppRoutes />
        </Layout>
      </Router>
    </AppProviders>
  );
}

/** Renders nothing; counts in-app navigations (see usePageViewBeacon). */
function PageViewBeacon() {
  usePageViewBeacon();
  return null;
}

/** A thin bar at the top while a followed link's page loads. */
function NavigationProgress() {
  const waiting = useNavigationWaiting();
  return waiting ? (
    <div
      className="nav-progress"
      role="progressbar"
      aria-label="Loading the page"
    />
  ) : null;
}
