/** A page whose data could not be loaded: says so (never "nothing here"), with a Retry. */
export function LoadFailed({
  title,
  message,
  retrying,
  onRetry,
}: {
  title: string;
  message: string;
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <div className="section">
      <div className="container center-block">
        <h1 className="page-title">{title}</h1>
        <p role="alert">{message}</p>
        <button
          type="button"
          className="btn btn-primary"
          disabled={retrying}
          onClick={onRetry}
        >
          Retry
        </button>
      </div>
    </div>
  );
}
