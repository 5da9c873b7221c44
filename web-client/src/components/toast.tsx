import {
  createContext,
  useCallback,
  useContext,
  useRef,
  useState,
  type ReactNode,
} from "react";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}

interface Toast extends ToastInput {
  id: number;
}

export type Notify = (toast: ToastInput) => void;

const ToastContext = createContext<Notify>(() => {});
const ClearContext = createContext<() => void>(() => {});

/** Shows a short message in the corner, e.g. "Error" / "Failed to load articles". */
export function useToast(): Notify {
  return useContext(ToastContext);
}

/** Removes the messages shown (a new attempt makes an old error stale). */
export function useClearToasts(): () => void {
  return useContext(ClearContext);
}

const DISMISS_AFTER_MS = 6000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setToasts((all) => all.filter((t) => t.id !== id));
  }, []);

  const notify = useCallback<Notify>(
    (toast) => {
      const id = nextId.current++;
      // A new message replaces the one before: stale errors never sit beside a success.
      setToasts([{ ...toast, id }]);
      window.setTimeout(() => dismiss(id), DISMISS_AFTER_MS);
    },
    [dismiss],
  );

  const clear = useCallback(() => setToasts([]), []);

  return (
    <ToastContext value={notify}>
      <ClearContext value={clear}>{children}</ClearContext>
      <div className="toasts" aria-live="polite" aria-atomic="false">
        {toasts.map((t) => (
          <div
            key={t.id}
            className={`toast toast-${t.variant ?? "default"}`}
            role={t.variant === "destructive" ? "alert" : "status"}
          >
            <div>
              <p className="toast-title">{t.title}</p>
              {t.description ? (
                <p className="toast-text">{t.description}</p>
              ) : null}
            </div>
            <button
              type="button"
              className="toast-close"
              aria-label="Dismiss notification"
              onClick={() => dismiss(t.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext>
  );
}
