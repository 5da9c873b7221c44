import type { ReactNode } from "react";
import { ToastProvider } from "@/components/toast";
import { SiteContext, type Site } from "@/lib/site";

export function AppProviders({
  site,
  children,
}: {
  site: Site;
  children: ReactNode;
}) {
  return (
    <SiteContext value={site}>
      <ToastProvider>{children}</ToastProvider>
    </SiteContext>
  );
}
