/**
 * A list that could not be loaded says so, with a Retry — never the empty
 * state, which would tell readers nothing was published.
 */
export function LoadFailedNotice({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="empty-state load-failed" role="alert">
      <p className="empty-title">Failed to load articles</p>
      <p>Check your connection, then try again.</p>
      <button type="button" className="btn btn-secondary" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
