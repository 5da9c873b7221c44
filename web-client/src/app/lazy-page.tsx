import {
  lazy,
  Suspense,
  useState,
  type ComponentType,
  type ReactElement,
} from "react";
import { LoadingSection } from "@/components/LoadingSection";

export interface LazyPage {
  (): ReactElement;
  /** Loads the page's chunk (once); resolves when it can render at once. */
  preload(): Promise<void>;
}

/**
 * A page kept out of the main bundle (pages a reader of an article does not
 * need). Once its chunk is loaded it renders at once, exactly as if it were
 * in the bundle: the server loads every chunk before rendering anything, and
 * the browser loads the chunk of the server-rendered page before hydrating
 * (see `preloadPage`), so there is no Suspense boundary in either markup.
 * Only an in-app navigation to a page whose chunk is not there yet shows a
 * loading section meanwhile.
 */
export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let Loaded: ComponentType | null = null;
  let loading: Promise<void> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (component) => {
        Loaded = component;
      },
      (cause: unknown) => {
        loading = null; // a later call tries again
        throw cause;
      },
    ));
  const Deferred = lazy(() =>
    preload().then(() => ({ default: Loaded as ComponentType })),
  );

  function Page() {
    // Fixed for the life of the page, so that the tree never changes shape
    // (which would reset what a reader typed) when the chunk arrives.
    const [Ready] = useState(() => Loaded);
    if (Ready) return <Ready />;
    return (
      <Suspense fallback={<LoadingSection />}>
        <Deferred />
      </Suspense>
    );
  }
  return Object.assign(Page, { preload });
}
