import type { ReactNode } from "react";
import { ToastProvider } from "@/components/toast";
import { AuthProvider } from "@/features/identity";
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
      <ToastProvider>
        <AuthProvider>{children}</AuthProvider>
      </ToastProvider>
    </SiteContext>
  );
}
