import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useLocation } from "wouter";
import { ButtonLink } from "@/components/Button";
import { LoadingSection } from "@/components/LoadingSection";
import { ServerNotice } from "@/components/ServerNotice";
import { useToast } from "@/components/toast";
import { InputField } from "@/components/InputField";
import { useDocumentTitle } from "@/lib/document-title";
import { ANSWER_ID, doneMessage, useFormAnswer } from "@/lib/form-answer";
import { useHydrated } from "@/lib/hydrated";
import { INTERESTS, isInterest } from "@/lib/interests";
import { PAGE_TITLES } from "@/lib/pages.gen";
import { retryCallsWhenUnavailable } from "@/lib/unavailable";
import { useForm } from "@/lib/use-form";
import {
  changePassword,
  deleteAccount,
  EXPORT_URL,
  getAccount,
  setSubscriptions,
  signOut,
  updateProfile,
  type Account,
  type Subscriptions,
} from "@/features/readers/api/readers";
import {
  accountGone,
  accountSaved,
  readerKeys,
} from "@/features/readers/api/keys";
import {
  answerNotice,
  answerProblem,
  formNotice,
  refusal,
} from "@/features/readers/form-notice";
import { MyResponses } from "./MyResponses";
import { NewPasswordFields } from "./NewPasswordFields";
import { Notice } from "./Notice";
import { useQuery } from "@/lib/use-query";

const PROFILE_SAVED = "Your profile is saved.";
const EMAILS_SAVED = "Your email choices are saved.";
const PASSWORD_CHANGED =
  "Your password is changed. Other devices have been signed out.";

/** The notice a no-JavaScript post is sent back to: the form that answered. */
function useAnswerId(intent: string): string | undefined {
  return useFormAnswer(intent) ? ANSWER_ID : undefined;
}

function Panel({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section className="account-panel" aria-labelledby={id}>
      <h2 id={id} className="account-panel-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** `/account`: the signed-in reader's profile, emails, password and data. */
// A moment without the database retries the account's calls instead of
// failing them (or signing the reader out).
retryCallsWhenUnavailable();

export function AccountPage() {
  return (
    <>
      <ServerNotice />
      <AccountContent />
    </>
  );
}

function AccountContent() {
  useDocumentTitle(PAGE_TITLES["/account"]);
  const deleted = useFormAnswer("delete");
  const query = useQuery({
    queryKey: readerKeys.account,
    queryFn: ({ signal }) => getAccount(signal),
    staleTime: 0,
    retry: false,
  });
  if (query.data === undefined) return <LoadingSection title="My account" />;
  const outcome = query.data;
  if (!outcome.ok && deleted?.done !== undefined) {
    return (
      <div className="section">
        <div className="container auth-card">
          <h1 className="page-title">Account deleted</h1>
          <p id={ANSWER_ID} role="status">
            Your account, interests and subscriptions are gone.
          </p>
          <ButtonLink href="/" size="lg">
            Back to Home
          </ButtonLink>
        </div>
      </div>
    );
  }
  if (!outcome.ok) {
    const signedOut = outcome.status === 401;
    return (
      <div className="section">
        <div className="container auth-card">
          <h1 className="page-title">My account</h1>
          <p role={signedOut ? undefined : "alert"}>
            {signedOut
              ? "Please sign in to see your account."
              : outcome.message}
          </p>
          <ButtonLink href="/login" size="lg">
            Sign in
          </ButtonLink>
        </div>
      </div>
    );
  }
  return <AccountPanels account={outcome.data} />;
}

function AccountPanels({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const notify = useToast();
  const keep = (next: Account) => accountSaved(queryClient, next);
  const signingOut = useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      accountGone(queryClient);
      navigate("/");
    },
  });

  return (
    <div className="section">
      <div className="container account">
        <div className="account-head">
          <div>
            <h1 className="page-title">My account</h1>
            <p className="muted">Signed in as {account.email}</p>
          </div>
          <form
            method="post"
            onSubmit={(event) => {
              event.preventDefault();
              signingOut.mutate();
            }}
          >
            <input type="hidden" name="intent" value="sign-out" />
            <button type="submit" className="btn btn-secondary">
              Sign out
            </button>
          </form>
        </div>
        <ProfilePanel account={account} onSaved={keep} />
        <SubscriptionsPanel account={account} onSaved={keep} />
        <MyResponses />
        <PasswordPanel />
        <Panel id="account-data" title="Your data">
          <p>
            We keep only what you gave us when you registered (name, email, age,
            country, interests), your password as a one-way hash, the emails you
            chose, your responses to articles, and when you signed in. Download
            all of it as a file:
          </p>
          <a className="btn btn-secondary" href={EXPORT_URL} download>
            Download my data (JSON)
          </a>
        </Panel>
        <DeletePanel
          onDeleted={() => {
            accountGone(queryClient);
            notify({
              title: "Account deleted",
              description:
                "Your account, interests and subscriptions are gone.",
            });
            navigate("/");
          }}
        />
      </div>
    </div>
  );
}

function ProfilePanel({
  account,
  onSaved,
}: {
  account: Account;
  onSaved: (account: Account) => void;
}) {
  const answer = useFormAnswer("profile");
  const noticeId = useAnswerId("profile");
  const form = useForm({
    initial: () => ({
      first: account.first_name,
      last: account.last_name,
      country: account.country ?? "",
      interests: account.interests,
    }),
    problem: () => answerProblem(answer),
    done: answer?.done !== undefined,
    send: ({ first, last, country, interests }) =>
      updateProfile({
        first_name: first,
        last_name: last,
        country,
        interests: interests.filter(isInterest),
      }),
    refused: refusal,
    onDone: (saved) => onSaved(saved),
    toast: false,
  });

  return (
    <Panel id="account-profile" title="Profile">
      <form className="form" method="post" onSubmit={form.submit}>
        <input type="hidden" name="intent" value="profile" />
        <div className="form-row">
          <InputField
            id="account-first"
            name="first_name"
            label="First name"
            autoComplete="given-name"
            required
            {...form.bind("first")}
          />
          <InputField
            id="account-last"
            name="last_name"
            label="Last name"
            autoComplete="family-name"
            required
            {...form.bind("last")}
          />
        </div>
        <InputField
          id="account-country"
          name="country"
          label="Country"
          autoComplete="country-name"
          {...form.bind("country")}
        />
        <fieldset className="account-choices">
          <legend>Interests</legend>
          {INTERESTS.map((interest) => (
            <label key={interest} className="check-field">
              <input
                type="checkbox"
                name="interests"
                value={interest}
                checked={form.fields.interests.includes(interest)}
                onChange={(event) =>
                  form.setFields((now) => ({
                    ...now,
                    interests: event.target.checked
                      ? [...now.interests, interest]
                      : now.interests.filter((i) => i !== interest),
                  }))
                }
              />
              {interest}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn btn-primary" disabled={form.busy}>
          {form.busy ? "Saving..." : "Save profile"}
        </button>
        <Notice
          notice={formNotice(form.problem, form.done ? PROFILE_SAVED : null)}
          id={noticeId}
        />
      </form>
    </Panel>
  );
}

const EMAILS: { key: keyof Subscriptions; label: string; hint: string }[] = [
  {
    key: "magazine",
    label: "Magazine launches",
    hint: "An email when a new issue of the magazine is out.",
  },
  {
    key: "packs",
    label: "Educational packs launch",
    hint: "An email when the educational packs are available.",
  },
  {
    key: "digest",
    label: "Weekly digest",
    hint: "Once a week, the new articles in your interests (nothing when there is nothing new).",
  },
];

function SubscriptionsPanel({
  account,
  onSaved,
}: {
  account: Account;
  onSaved: (account: Account) => void;
}) {
  const answer = useFormAnswer("subscriptions");
  const noticeId = useAnswerId("subscriptions");
  const form = useForm({
    initial: account.subscriptions,
    problem: () => answerProblem(answer),
    done: answer?.done !== undefined,
    send: setSubscriptions,
    refused: refusal,
    onDone: onSaved,
    toast: false,
  });

  return (
    <Panel id="account-emails" title="Emails">
      <form className="form" method="post" onSubmit={form.submit}>
        <input type="hidden" name="intent" value="subscriptions" />
        <fieldset className="account-choices">
          <legend>Send me</legend>
          {EMAILS.map(({ key, label, hint }) => (
            <label key={key} className="check-field account-choice">
              <input
                type="checkbox"
                name={key}
                checked={form.fields[key]}
                onChange={(event) => form.set(key, event.target.checked)}
              />
              <span>
                {label}
                <span className="field-hint">{hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn btn-primary" disabled={form.busy}>
          {form.busy ? "Saving..." : "Save email choices"}
        </button>
        <Notice
          notice={formNotice(form.problem, form.done ? EMAILS_SAVED : null)}
          id={noticeId}
        />
      </form>
    </Panel>
  );
}

function PasswordPanel() {
  const answer = useFormAnswer("password");
  const noticeId = useAnswerId("password");
  const form = useForm({
    initial: { current: "", password: "", confirm: "" },
    problem: () => answerProblem(answer),
    done: answer?.done !== undefined,
    send: ({ current, password, confirm }) =>
      changePassword(current, password, confirm),
    refused: refusal,
    onDone: () => form.reset(),
    toast: false,
  });

  return (
    <Panel id="account-password" title="Password">
      <form className="form" method="post" onSubmit={form.submit}>
        <input type="hidden" name="intent" value="password" />
        <InputField
          id="account-current"
          name="current_password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          {...form.bind("current")}
        />
        <div className="form-row">
          <NewPasswordFields
            idPrefix="account-new"
            password={form.fields.password}
            confirm={form.fields.confirm}
            onPassword={(value) => form.set("password", value)}
            onConfirm={(value) => form.set("confirm", value)}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={form.busy}>
          {form.busy ? "Saving..." : "Change password"}
        </button>
        <Notice
          notice={formNotice(form.problem, form.done ? PASSWORD_CHANGED : null)}
          id={noticeId}
        />
      </form>
    </Panel>
  );
}

function DeletePanel({ onDeleted }: { onDeleted: () => void }) {
  const [asked, setAsked] = useState(false);
  const answer = useFormAnswer("delete");
  const refused = answerNotice(answer);
  // Without JavaScript the confirmation form is on show from the start.
  const hydrated = useHydrated();
  const noticeId = useAnswerId("delete");
  const form = useForm({
    initial: { password: "" },
    problem: () => answerProblem(answer),
    done: answer?.done !== undefined,
    send: ({ password }) => deleteAccount(password),
    refused: refusal,
    onDone: onDeleted,
    toast: false,
  });

  return (
    <Panel id="account-delete" title="Delete account">
      <p>
        Deleting your account removes your profile, interests and email
        subscriptions at once. It cannot be undone.
      </p>
      {asked || !hydrated || refused ? (
        <form className="form" method="post" onSubmit={form.submit}>
          <input type="hidden" name="intent" value="delete" />
          <InputField
            id="account-delete-password"
            name="password"
            label="Enter your password to confirm"
            type="password"
            autoComplete="current-password"
            required
            {...form.bind("password")}
          />
          <div className="account-actions">
            <button
              type="submit"
              className="btn btn-danger-solid"
              disabled={form.busy}
            >
              {form.busy ? "Deleting..." : "Delete my account permanently"}
            </button>
            {hydrated ? (
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => setAsked(false)}
              >
                Cancel
              </button>
            ) : null}
          </div>
          <Notice
            notice={formNotice(
              form.problem,
              form.done ? doneMessage(answer) : null,
            )}
            id={noticeId}
          />
        </form>
      ) : (
        <button
          type="button"
          className="btn btn-danger-solid"
          onClick={() => setAsked(true)}
        >
          Delete my account…
        </button>
      )}
    </Panel>
  );
}
