import { lazy, Suspense } from "react";
import { Route, Switch } from "wouter";
import { LoadingSection } from "@/components/LoadingSection";
import {
  ArticleDetailPage,
  ArticlesPage,
  AuthorPage,
  CategoryPage,
  HomePage,
  categoryOfSlug,
} from "@/features/content";
import { EMAIL_LANDING_PATHS } from "@/features/outreach/landing";
import { ISSUE_PATH } from "@/features/outreach/magazine";
import "@/features/outreach/styles";
import "@/features/readers/styles";
import { isStaffRole } from "@/lib/staff-roles";
import { lazyPage, type LazyPage } from "./lazy-page";
import { NotFoundPage } from "./NotFoundPage";

// Never rendered on the server: the app answers /dashboard/* with a shell.
const StaffDashboard = lazy(() =>
  import("./StaffDashboard").then((m) => ({ default: m.StaffDashboard })),
);

// The outreach pages share one chunk, outside the main bundle: readers of
// articles never download them (the article page's script budget). Their
// routes come from this table, so that preloadPage knows every one of them.
const outreach = () => import("@/features/outreach");
type Outreach = Awaited<ReturnType<typeof outreach>>;
const fromOutreach = (name: keyof Outreach) =>
  lazyPage(() => outreach().then((m) => m[name]));

// Reader sign-in and the account page: another chunk of their own.
const readers = () => import("@/features/readers");
type Readers = Awaited<ReturnType<typeof readers>>;
const fromReaders = (name: keyof Readers) =>
  lazyPage(() => readers().then((m) => m[name]));

// Staff sign-in: a chunk of its own, with the forms' code, which an article's
// readers never need.
const KeyLoginPage = lazyPage(() =>
  import("@/features/identity/pages").then((m) => m.KeyLoginPage),
);

// Each issue of the magazine: a page with a parameter, in the outreach chunk.
const MagazineIssuePage = fromOutreach("MagazineIssuePage");

const LAZY_PAGES = new Map<string, LazyPage>([
  ["/key-login", KeyLoginPage],
  ["/login", fromReaders("ReaderLoginPage")],
  ["/forgot-password", fromReaders("ForgotPasswordPage")],
  ["/reset-password", fromReaders("ResetPasswordPage")],
  ["/email/sign-in", fromReaders("SignInLinkPage")],
  ["/account", fromReaders("AccountPage")],
  ["/magazine", fromOutreach("MagazinePage")],
  ["/educational-packs", fromOutreach("PacksPage")],
  ["/about", fromOutreach("AboutPage")],
  ["/contributors", fromOutreach("ContributorsPage")],
  ["/application", fromOutreach("ApplicationPage")],
  ["/application/success", fromOutreach("ApplicationSuccessPage")],
  ["/contact-us", fromOutreach("ContactPage")],
  ["/signup", fromOutreach("SignupPage")],
  ["/signup/check-email", fromOutreach("CheckEmailPage")],
  ...EMAIL_LANDING_PATHS.map(
    (path) => [path, fromOutreach("EmailLandingPage")] as const,
  ),
]);

/** The paths of the pages outside the main bundle. */
export const LAZY_PAGE_PATHS: readonly string[] = [...LAZY_PAGES.keys()];

/**
 * Loads the chunk of the page at `pathname` when it has one of its own
 * (`null` otherwise). The browser waits for it before hydrating, so that the
 * first render matches the server's HTML. Paths match as wouter matches
 * static ones: in any case, with or without a trailing slash.
 */
export function preloadPage(pathname: string): Promise<void> | null {
  const path = pathname.toLowerCase().replace(/(.)\/$/, "$1");
  if (ISSUE_PATH.test(path)) return MagazineIssuePage.preload();
  return LAZY_PAGES.get(path)?.preload() ?? null;
}

/** Loads every page chunk: the server does before its first render. */
export async function preloadAllPages(): Promise<void> {
  await Promise.all(
    [...LAZY_PAGES.values(), MagazineIssuePage].map((page) => page.preload()),
  );
}

/** A staff dashboard, or a 404 for a role there is none of. */
function dashboard(params: { role: string }) {
  return isStaffRole(params.role) ? (
    <Suspense fallback={<LoadingSection title="Dashboard" />}>
      <StaffDashboard role={params.role} />
    </Suspense>
  ) : (
    <NotFoundPage />
  );
}

/** The route table of spec §2. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/" component={HomePage} />
      <Route path="/articles" component={ArticlesPage} />
      <Route path="/article/:slug">
        {(params) => <ArticleDetailPage slug={params.slug} />}
      </Route>
      <Route path="/category/:slug">
        {(params) => {
          const category = categoryOfSlug(params.slug);
          return category ? (
            <CategoryPage category={category} />
          ) : (
            <NotFoundPage />
          );
        }}
      </Route>
      <Route path="/author/:slug">
        {(params) => (
          <AuthorPage slug={params.slug} notFound={<NotFoundPage />} />
        )}
      </Route>
      <Route path="/magazine/:slug" component={MagazineIssuePage} />
      {[...LAZY_PAGES].map(([path, page]) => (
        <Route key={path} path={path} component={page} />
      ))}
      <Route path="/dashboard/:role">{dashboard}</Route>
      {/* The article editor has its own address, so a reload returns to it. */}
      <Route path="/dashboard/:role/articles/:id">{dashboard}</Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
