import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation, useRoute } from "wouter";
import { Button } from "@/components/Button";
import { useToast } from "@/components/toast";
import { useNewsroomRules } from "@/lib/newsroom";
import { IN_PAGE } from "@/lib/in-page";
import { dashboardPath } from "@/lib/staff-roles";
import type { StaffUser } from "@/lib/session";
import { useStaffChanges } from "@/features/dashboards/api/changes";
import {
  submitArticle,
  unscheduleArticle,
  withdrawArticle,
} from "@/features/dashboards/api/newsroom";
import {
  deleteArticle,
  publishArticle,
} from "@/features/dashboards/api/staff-articles";
import {
  useReportFailure,
  useStaffArticles,
  useWriters,
} from "@/features/dashboards/api/use-staff-data";
import type {
  EditorComponent,
  StaffArticle,
  Writer,
} from "@/features/dashboards/types";
import { ArticlesTable } from "./ArticlesTable";
import { ArticleLog } from "./ArticleLog";
import { DashboardFrame } from "./DashboardFrame";
import { NoticesPanel } from "./NoticesPanel";
import { ProfilePanel } from "./ProfilePanel";
import { ResponsesPanel } from "./ResponsesPanel";
import { ReviewQueue } from "./ReviewQueue";

interface Props {
  user: StaffUser;
  Editor: EditorComponent;
}

/** A newsroom move of a row (submit, withdraw, pull back), with its toast. */
interface Move {
  article: StaffArticle;
  /** How a failure is reported. */
  what: string;
  /** The toast once done. */
  done: string;
  action: (id: string) => Promise<unknown>;
}

/** The writer's notebook: their own articles. */
export function WriterDashboard(props: Props) {
  return <ArticlesDashboard {...props} writers={undefined} />;
}

/** The content director's: every article, with authors, written for a chosen writer. */
export function ContentDirectorDashboard(props: Props) {
  const writers = useWriters();
  return <ArticlesDashboard {...props} writers={writers} />;
}

/** The editor's address under a dashboard: `…/articles/{id}`, or `…/articles/new`. */
const EDITOR_ROUTE = "/dashboard/:role/articles/:id";
const NEW = "new";

function ArticlesDashboard({
  user,
  Editor,
  writers,
}: Props & { writers: readonly Writer[] | undefined }) {
  const notify = useToast();
  const report = useReportFailure();
  const changes = useStaffChanges();
  const articles = useStaffArticles();
  const [, navigate] = useLocation();
  const [editorOpen, route] = useRoute<{ role: string; id: string }>(
    EDITOR_ROUTE,
  );
  const home = dashboardPath(user.role);
  // A new key resets the form (New Article pressed again).
  const [editorKey, setEditorKey] = useState(0);
  const editingId = editorOpen ? route.id : null;
  const editing =
    editingId === null || editingId === NEW
      ? null
      : (articles?.find((a) => a.id === editingId) ?? null);
  const [logOf, setLogOf] = useState<StaffArticle | null>(null);
  const all = writers !== undefined;
  const rules = useNewsroomRules();
  // Under review rules a writer submits; the one-click Publish is the reviewer's.
  const canPublish = all || rules?.review_required === false;

  const open = (article: StaffArticle | null) => {
    setEditorKey((k) => k + 1);
    navigate(
      `${home}/articles/${article ? encodeURIComponent(article.id) : NEW}`,
      { state: IN_PAGE },
    );
  };
  const close = () => navigate(home, { state: IN_PAGE });

  const publishing = useMutation({
    mutationFn: (article: StaffArticle) => publishArticle(article.id),
    onSuccess: () => {
      notify({ title: "Article published successfully!" });
      return changes.articles();
    },
    onError: (cause) => report("Failed to publish article", cause),
  });
  const moving = useMutation({
    mutationFn: ({ article, action }: Move) => action(article.id),
    onSuccess: (_moved, { article, done }) => {
      notify({ title: done, description: article.title });
      return changes.articles();
    },
    onError: (cause, { what }) => report(what, cause),
  });
  const removing = useMutation({
    mutationFn: (article: StaffArticle) => deleteArticle(article.id),
    onSuccess: (_nothing, article) => {
      notify({ title: "Article deleted successfully!" });
      if (editingId === article.id) close();
      return changes.articles();
    },
    onError: (cause) => report("Failed to delete article", cause),
  });
  const busyId = publishing.isPending
    ? publishing.variables.id
    : moving.isPending
      ? moving.variables.article.id
      : removing.isPending
        ? removing.variables.id
        : null;

  /** A newsroom move of a row (submit, withdraw, pull back), with its toast. */
  function move(
    article: StaffArticle,
    what: string,
    done: string,
    action: (id: string) => Promise<unknown>,
  ) {
    moving.mutate({ article, what, done, action });
  }

  function remove(article: StaffArticle) {
    if (!window.confirm(`Are you sure you want to delete “${article.title}”?`))
      return;
    removing.mutate(article);
  }

  const count = articles?.length ?? 0;
  return (
    <DashboardFrame
      user={user}
      actions={<Button onClick={() => open(null)}>New Article</Button>}
    >
      {all ? <ReviewQueue /> : null}
      {all ? <ResponsesPanel /> : null}
      {all ? null : <NoticesPanel />}
      <ProfilePanel members={all ? writers : undefined} />
      {editingId === NEW || editing ? (
        <Editor
          key={`${editingId}-${editorKey}`}
          article={editing}
          writers={writers}
          onSaved={(saved) => {
            changes.articleSaved(saved);
            close();
            void changes.articles();
          }}
          onCancel={close}
        />
      ) : editingId !== null ? (
        <section className="editor" aria-labelledby="editor-missing">
          <h2 id="editor-missing" className="editor-heading">
            {articles === null ? "Loading article..." : "Article not found"}
          </h2>
          {articles === null ? null : (
            <p>This article is not in your list: it may have been deleted.</p>
          )}
          <div className="editor-actions">
            <Button variant="quiet" onClick={close}>
              Close
            </Button>
          </div>
        </section>
      ) : null}
      {logOf ? (
        <section className="editor" aria-labelledby="log-heading">
          <h2 id="log-heading" className="editor-heading">
            Log of “{logOf.title}”
          </h2>
          <ArticleLog key={logOf.id} articleId={logOf.id} />
          <div className="editor-actions">
            <Button variant="quiet" onClick={() => setLogOf(null)}>
              Close
            </Button>
          </div>
        </section>
      ) : null}
      <section aria-labelledby="articles-heading">
        <h2 id="articles-heading" className="dashboard-subtitle">
          {all ? "All Articles" : "Your Articles"} ({count})
        </h2>
        {articles === null ? (
          <p className="status-text" role="status">
            Loading articles...
          </p>
        ) : count === 0 ? (
          <div className="empty-state">
            <p className="empty-title">No articles yet</p>
            <p className="muted">
              Click “New Article” to write your first article.
            </p>
          </div>
        ) : (
          <ArticlesTable
            labelledBy="articles-heading"
            articles={articles}
            showAuthor={all}
            busyId={busyId}
            onEdit={open}
            onPublish={(a) => publishing.mutate(a)}
            onDelete={remove}
            canPublish={canPublish}
            onLog={all ? setLogOf : undefined}
            onSubmit={
              all
                ? undefined
                : (a) =>
                    move(
                      a,
                      "Failed to submit article",
                      "Submitted for review",
                      submitArticle,
                    )
            }
            onWithdraw={
              all
                ? undefined
                : (a) =>
                    move(
                      a,
                      "Failed to withdraw article",
                      "Withdrawn from review",
                      withdrawArticle,
                    )
            }
            onUnschedule={(a) =>
              move(
                a,
                "Failed to pull the article back",
                "Pulled back to draft",
                unscheduleArticle,
              )
            }
          />
        )}
      </section>
    </DashboardFrame>
  );
}
