/** What a form says after it was sent: an error, or what happens next. */
export interface NoticeText {
  kind: "error" | "info";
  text: string;
}

/**
 * The message under a form, announced by screen readers (an alert for
 * errors, a polite status otherwise). It replaces the previous one.
 */
export function Notice({
  notice,
  id,
}: {
  notice: NoticeText | null;
  /** "answer" where a form posted without JavaScript is answered. */
  id?: string;
}) {
  return (
    <div
      id={id}
      className={
        notice?.kind === "error" ? "form-notice is-error" : "form-notice"
      }
      role={notice?.kind === "error" ? "alert" : "status"}
    >
      {notice?.text}
    </div>
  );
}
