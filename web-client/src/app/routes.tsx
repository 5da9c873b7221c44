import { lazy, Suspense } from "react";
import { Route, Switch, useLocation } from "wouter";
import { LoadingSection } from "@/components/LoadingSection";
import { ArticleDetailPage, ArticlesPage, HomePage } from "@/features/content";
import { KeyLoginPage, LoginPage } from "@/features/identity";
import {
  AboutPage,
  ApplicationPage,
  ApplicationSuccessPage,
  ContactPage,
  ContributorsPage,
  MagazinePage,
  PacksPage,
  SignupPage,
} from "@/features/outreach";
import { isStaffRole } from "@/lib/staff-roles";
import { useRawSearch } from "@/lib/use-raw-search";
import { initialDataFor } from "./initial-data";
import { NotFoundPage } from "./NotFoundPage";
import type { PageData } from "./page-data";

// Never rendered on the server: the app answers /dashboard/* with a shell.
const StaffDashboard = lazy(() =>
  import("./StaffDashboard").then((m) => ({ default: m.StaffDashboard })),
);

/** The route table of spec §2. */
export function AppRoutes({ data }: { data: PageData }) {
  const [pathname] = useLocation();
  const search = useRawSearch();
  const initial = initialDataFor(data, pathname, search);

  return (
    <Switch>
      <Route path="/">
        <HomePage initial={initial.home} />
      </Route>
      <Route path="/articles">
        <ArticlesPage initial={initial.list} />
      </Route>
      <Route path="/article/:slug">
        {(params) => (
          <ArticleDetailPage slug={params.slug} initial={initial.article} />
        )}
      </Route>
      <Route path="/magazine" component={MagazinePage} />
      <Route path="/educational-packs" component={PacksPage} />
      <Route path="/about" component={AboutPage} />
      <Route path="/contributors" component={ContributorsPage} />
      <Route path="/application" component={ApplicationPage} />
      <Route path="/application/success" component={ApplicationSuccessPage} />
      <Route path="/contact-us" component={ContactPage} />
      <Route path="/login" component={LoginPage} />
      <Route path="/signup" component={SignupPage} />
      <Route path="/key-login" component={KeyLoginPage} />
      <Route path="/dashboard/:role">
        {(params) =>
          isStaffRole(params.role) ? (
            <Suspense fallback={<LoadingSection title="Dashboard" />}>
              <StaffDashboard role={params.role} />
            </Suspense>
          ) : (
            <NotFoundPage />
          )
        }
      </Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
