/** A page-sized "Loading..." for client-only screens (dashboards). */
export function LoadingSection({ title }: { title?: string }) {
  return (
    <div className="section">
      <div className="container">
        {title ? <h1 className="sr-only">{title}</h1> : null}
        <p className="status-text" role="status">
          Loading...
        </p>
      </div>
    </div>
  );
}
