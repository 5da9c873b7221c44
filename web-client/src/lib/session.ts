import { createContext, useContext } from "react";
import type { components } from "@/api/schema";

export type StaffUser = components["schemas"]["StaffUser"];

export type LoginOutcome =
  { ok: true; user: StaffUser } | { ok: false; message: string };

/**
 * The signed-in staff member as the page knows them. `identity` provides it
 * (src/app/providers.tsx); shared components and other features only read it.
 */
export interface Session {
  /** `null` when signed out, or not known yet (server render, first paint). */
  user: StaffUser | null;
  /** On until the stored user has been confirmed with the server. */
  loading: boolean;
  login(accessKey: string): Promise<LoginOutcome>;
  /** Ends the session here and on the server. */
  logout(): Promise<void>;
  /**
   * Forgets the user after the server answered 401 (the session is over), at
   * once or, while unsaved work holds the page, when it lets go.
   */
  expire(): void;
  /** Holds the page for unsaved work (an open editor); returns the release. */
  hold(): () => void;
}

const NO_SESSION: Session = {
  user: null,
  loading: true,
  login: () => Promise.resolve({ ok: false, message: "Login failed" }),
  logout: () => Promise.resolve(),
  expire: () => {},
  hold: () => () => {},
};

export const SessionContext = createContext<Session>(NO_SESSION);

export function useSession(): Session {
  return useContext(SessionContext);
}
