import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ToastProvider } from "@/components/toast";
import { AuthProvider } from "@/features/identity";
import { ReaderHintContext } from "@/lib/reader";
import { SiteContext, type Site } from "@/lib/site";

export function AppProviders({
  site,
  reader = false,
  queryClient,
  children,
}: {
  site: Site;
  /** The request carried a reader's session cookie. */
  reader?: boolean;
  /** The page load's (browser) or the request's (server) query cache. */
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <SiteContext value={site}>
      <ReaderHintContext value={reader}>
        <QueryClientProvider client={queryClient}>
          <ToastProvider>
            <AuthProvider>{children}</AuthProvider>
          </ToastProvider>
        </QueryClientProvider>
      </ReaderHintContext>
    </SiteContext>
  );
}
