import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ToastProvider } from "@/components/toast";
import { AuthProvider } from "@/features/identity";
import { SiteContext, type Site } from "@/lib/site";

export function AppProviders({
  site,
  queryClient,
  children,
}: {
  site: Site;
  /** The page load's (browser) or the request's (server) query cache. */
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <SiteContext value={site}>
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          <AuthProvider>{children}</AuthProvider>
        </ToastProvider>
      </QueryClientProvider>
    </SiteContext>
  );
}
