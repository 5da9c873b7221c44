import { MutationObserver, type QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Problem } from "@/lib/problems";
import { createQueryClient } from "@/lib/query-client";
import { mount, settle } from "@/test/query";
import {
  formMutation,
  Refused,
  settle as settled,
  submitForm,
  type FormOptions,
  type Sending,
} from "./use-form";

afterEach(() => {
  vi.restoreAllMocks();
});

interface Fields {
  email: string;
}
type Result =
  | { ok: true; data: { message: string } }
  | { ok: false; refused: { code: string; message: string } | null };

const INVALID: Problem = {
  title: "Invalid Email",
  message: "Please enter a valid email address.",
  fields: ["email"],
};
const check = (fields: Fields) => (fields.email.includes("@") ? null : INVALID);
const refused = (refusal: Extract<Result, { ok: false }>): Problem =>
  refusal.refused
    ? { title: "Refused", message: refusal.refused.message, fields: ["email"] }
    : { title: "Error", message: "Something went wrong.", fields: [] };

/** A promise and the function that resolves it. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Does what `useForm` does when mounted and submitted: the mutation's observer
 * (as `useMutation` subscribes one), and `submitForm` with the form's check.
 */
function mountForm(
  client: QueryClient,
  options: Pick<FormOptions<Fields, Result>, "send" | "invalidates" | "onDone">,
) {
  const shown: (Problem | null)[] = [];
  const observer = new MutationObserver(
    client,
    formMutation<Fields, Result, undefined>(client, {
      ...options,
      refused,
      onRefused: (problem) => shown.push(problem),
    }),
  );
  observer.subscribe(() => {});
  const submit = (fields: Fields) =>
    submitForm(check, fields, undefined, {
      refuse: (problem) => shown.push(problem),
      mutate: (sending: Sending<Fields, undefined>) =>
        void observer.mutate(sending).catch(() => {}),
    });
  return { shown, submit, result: () => observer.getCurrentResult() };
}

describe("useForm's send", () => {
  it("sends the fields and, on success, fetches the given keys again", async () => {
    const client = createQueryClient();
    const fetches = { list: 0, other: 0 };
    mount(client, {
      queryKey: ["things", "list"],
      queryFn: async () => ++fetches.list,
    });
    mount(client, {
      queryKey: ["other"],
      queryFn: async () => ++fetches.other,
    });
    await settle();
    const send = vi.fn(async () => ({
      ok: true as const,
      data: { message: "Sent." },
    }));
    const form = mountForm(client, { send, invalidates: [["things"]] });

    form.submit({ email: "ada@example.org" });
    await settle();

    expect(send).toHaveBeenCalledWith({ email: "ada@example.org" }, undefined);
    expect(form.result().isSuccess).toBe(true);
    expect(form.result().data).toEqual({ message: "Sent." });
    expect(fetches).toEqual({ list: 2, other: 1 });
  });

  it("is done, then busy until what the success made stale was fetched again", async () => {
    const client = createQueryClient();
    const refreshed = deferred<void>();
    const sent = deferred<Result>();
    const onDone = vi.fn();
    const form = mountForm(client, {
      send: () => sent.promise,
      invalidates: () => refreshed.promise,
      onDone,
    });

    form.submit({ email: "ada@example.org" });
    await settle();
    expect(form.result().isPending).toBe(true);
    expect(onDone).not.toHaveBeenCalled();
    sent.resolve({ ok: true, data: { message: "Sent." } });
    await settle();
    expect(onDone).toHaveBeenCalledWith(
      { message: "Sent." },
      { email: "ada@example.org" },
      undefined,
    );
    expect(form.result().isPending).toBe(true);
    refreshed.resolve();
    await settle();
    expect(form.result().isPending).toBe(false);
    expect(form.result().isSuccess).toBe(true);
  });

  it("sends nothing when the client-side check finds a problem", async () => {
    const client = createQueryClient();
    const send = vi.fn(async (): Promise<Result> => ({
      ok: true,
      data: { message: "" },
    }));
    const form = mountForm(client, { send });

    form.submit({ email: "ada" });
    await settle();

    expect(send).not.toHaveBeenCalled();
    expect(form.shown).toEqual([INVALID]);
    expect(form.result().isIdle).toBe(true);
  });

  it("makes a server refusal the form's problem, and stales nothing", async () => {
    const client = createQueryClient();
    const invalidates = vi.fn(async () => {});
    const form = mountForm(client, {
      send: async () => ({
        ok: false,
        refused: { code: "invalid_email", message: "That address bounced." },
      }),
      invalidates,
    });

    form.submit({ email: "ada@example.org" });
    await settle();

    const problem = {
      title: "Refused",
      message: "That address bounced.",
      fields: ["email"],
    };
    expect(form.result().error).toEqual(new Refused(problem));
    expect((form.result().error as Refused).problem).toEqual(problem);
    expect(form.shown).toEqual([problem]);
    expect(invalidates).not.toHaveBeenCalled();
  });

  it("says a failure without an answer in the form's words", async () => {
    const client = createQueryClient();
    const form = mountForm(client, {
      send: async () => ({ ok: false, refused: null }),
    });

    form.submit({ email: "ada@example.org" });
    await settle();

    expect(form.shown).toEqual([
      { title: "Error", message: "Something went wrong.", fields: [] },
    ]);
  });
});

describe("settle", () => {
  it("makes a call that throws an answer", async () => {
    expect(await settled(Promise.resolve(3))).toEqual({ ok: true, data: 3 });
    const cause = new Error("down");
    expect(await settled(Promise.reject(cause))).toEqual({ ok: false, cause });
  });
});
