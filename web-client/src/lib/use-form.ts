/**
 * One way to write a form: its fields, its problem (what the client-side
 * check or the server said), and its send as a TanStack Query mutation that
 * makes stale what the write changed. Every form of the app is written with
 * `useForm`; a button that writes (publish, delete) uses `useMutation` alone.
 *
 * A public form is also a plain HTML `<form method="post">`: the page starts
 * it from what the server answered a post without JavaScript (`useFormAnswer`).
 */
import {
  useMutation,
  useQueryClient,
  type MutationOptions,
  type QueryClient,
  type QueryKey,
} from "@tanstack/react-query";
import {
  useEffect,
  useEffectEvent,
  useId,
  useRef,
  useState,
  type Dispatch,
  type SetStateAction,
} from "react";
import { useToast } from "@/components/toast";
import { focusFirst, type Problem } from "./problems";
import { fetchAgain } from "./query-client";

/** What a send answers: the API's `SendResult` and `Outcome`, or `Settled`. */
export type Answer = { ok: true; data: unknown } | { ok: false };
/** The data of a success. */
export type DataOf<R extends Answer> = Extract<R, { ok: true }>["data"];
/** A refusal (or a failure to get an answer). */
export type RefusalOf<R extends Answer> = Exclude<R, { ok: true }>;

/** A call that throws when it fails (the staff API's `expectOk`), as an answer. */
export type Settled<T> = { ok: true; data: T } | { ok: false; cause: unknown };

export async function settle<T>(call: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, data: await call };
  } catch (cause) {
    return { ok: false, cause };
  }
}

/** A refusal, as the mutation's error: the problem to show (`null`: none). */
export class Refused extends Error {
  constructor(readonly problem: Problem | null) {
    super(problem?.message ?? "Refused");
    this.name = "Refused";
  }
}

/** What one submit sends: the fields, and which of the form's buttons. */
export interface Sending<F, I> {
  fields: F;
  intent: I;
}

// `refused` and `onDone` are best written as arrows: a function passed by
// name, its parameter typed, may be taken for the type of the answer.
export interface FormOptions<F, R extends Answer, I = undefined> {
  /** The fields at first: as a post without JavaScript sent them, or blank. */
  initial: F | (() => F);
  /** The problem at first (what the server said to a post without JavaScript). */
  problem?: Problem | null | (() => Problem | null);
  /** Whether the form was sent already (a post without JavaScript succeeded). */
  done?: boolean;
  /** The client-side check: a problem stops the form from being sent. */
  check?: (fields: F, intent: I) => Problem | null;
  /** Sends the fields (an API call; it answers a refusal, it never throws). */
  send: (fields: F, intent: I) => Promise<R>;
  /**
   * What a refusal means for the fields, usually `serverProblem`; `null` when
   * the form says it its own way (or it was said already).
   */
  refused: (refusal: RefusalOf<R>, fields: F, intent: I) => Problem | null;
  /** After a success (even if the form is gone meanwhile, as a page left). */
  onDone?: (data: DataOf<R>, fields: F, intent: I) => void;
  /**
   * What a success makes stale, once `onDone` ran: query keys (fetched again
   * where they are shown), or a feature's helper. The form stays busy until
   * the lists on screen show the change.
   */
  invalidates?:
    | readonly QueryKey[]
    | ((data: DataOf<R>, fields: F, intent: I) => Promise<unknown>);
  /** The element id of each field: a new problem focuses its first field. */
  idOf?: (field: string) => string;
  /** Whether a problem is also said in a toast (default); else the form says it. */
  toast?: boolean;
}

function succeeded<R extends Answer>(
  answer: R,
): answer is Extract<R, { ok: true }> {
  return answer.ok;
}

/**
 * The mutation of a form: sends; on success calls `onDone`, then makes
 * `invalidates` stale before it counts as done; a refusal is its error
 * (`Refused`), given to `onRefused`.
 */
export function formMutation<F, R extends Answer, I>(
  queryClient: QueryClient,
  options: Pick<
    FormOptions<F, R, I>,
    "send" | "refused" | "onDone" | "invalidates"
  > & { onRefused?: (problem: Problem | null) => void },
): MutationOptions<DataOf<R>, Error, Sending<F, I>> {
  const { send, refused, onDone, invalidates, onRefused } = options;
  return {
    mutationFn: async ({ fields, intent }) => {
      const answer = await send(fields, intent);
      if (succeeded(answer)) return answer.data;
      throw new Refused(refused(answer as RefusalOf<R>, fields, intent));
    },
    onSuccess: async (data, { fields, intent }) => {
      onDone?.(data, fields, intent);
      if (typeof invalidates === "function") {
        await invalidates(data, fields, intent);
      } else if (invalidates) {
        await Promise.all(
          invalidates.map((key) => fetchAgain(queryClient, key)),
        );
      }
    },
    onError: (error) => {
      if (error instanceof Refused) onRefused?.(error.problem);
      else console.error("The form could not be sent", error);
    },
  };
}

/**
 * What submitting does: a problem the client-side check finds is shown, and
 * nothing is sent; otherwise the fields are.
 */
export function submitForm<F, I>(
  check: ((fields: F, intent: I) => Problem | null) | undefined,
  fields: F,
  intent: I,
  to: {
    refuse: (problem: Problem) => void;
    mutate: (sending: Sending<F, I>) => void;
  },
): void {
  const found = check?.(fields, intent) ?? null;
  if (found) to.refuse(found);
  else to.mutate({ fields, intent });
}

/** A form of one button takes no intent; one of several names it. */
type IntentArgs<I> = [I] extends [undefined] ? [] : [intent: I];

/** The fields that take any text (an `<input>`'s value as it is). */
type TextField<F> = {
  [K in keyof F]: string extends F[K] ? K : never;
}[keyof F];

export interface Form<F, R extends Answer, I> {
  fields: F;
  setFields: Dispatch<SetStateAction<F>>;
  set: <K extends keyof F>(name: K, value: F[K]) => void;
  /** `value` and `onChange` of a text field. */
  bind: <K extends TextField<F>>(
    name: K,
  ) => {
    value: F[K];
    onChange: (event: { target: { value: string } }) => void;
  };
  problem: Problem | null;
  setProblem: Dispatch<SetStateAction<Problem | null>>;
  /** Shows a problem: beside its fields, in a toast, with focus on the first. */
  refuse: (problem: Problem) => void;
  /** Checks, then sends (`onSubmit`, or a button's click with its intent). */
  submit: (
    event?: { preventDefault(): void } | null,
    ...intent: IntentArgs<I>
  ) => void;
  /** While the send (and the refresh of what it changed) is under way. */
  busy: boolean;
  /** Which button is being sent. */
  sending: I | undefined;
  /** The last send succeeded (and no problem was found since). */
  done: boolean;
  /** What the last success answered. */
  data: DataOf<R> | undefined;
  /** Fields back to `to` (by default their initial values), with no problem. */
  reset: (to?: F) => void;
}

/**
 * A form's state and its send (see the top of this file). A problem is shown
 * beside its fields (`messageFor`), in a toast unless `toast` is false, and
 * focuses its first field once the form is enabled again.
 */
export function useForm<F, R extends Answer, I = undefined>(
  options: FormOptions<F, R, I>,
): Form<F, R, I> {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [fields, setFields] = useState<F>(options.initial);
  const [problem, setProblem] = useState<Problem | null>(
    options.problem ?? null,
  );
  const [done, setDone] = useState(options.done ?? false);
  // Each problem shown takes the focus to its first field, once the form is
  // rendered with it and enabled again.
  const [refusals, setRefusals] = useState(0);
  const focused = useRef(0);
  const focus = useEffectEvent(() => {
    if (options.idOf) focusFirst(problem, options.idOf);
  });

  function refuse(found: Problem) {
    setProblem(found);
    setDone(false);
    setRefusals((n) => n + 1);
    if (options.toast !== false) {
      toast({
        title: found.title,
        description: found.message,
        variant: "destructive",
      });
    }
  }

  // The form's own key: one send at a time, counted from the click on.
  const formId = useId();
  const mutationKey = ["form", formId];
  const mutation = useMutation({
    ...formMutation(queryClient, {
      ...options,
      onDone: (data, sent, intent) => {
        setProblem(null);
        setDone(true);
        options.onDone?.(data, sent, intent);
      },
      onRefused: (found) => {
        if (found) return refuse(found);
        setProblem(null);
        setDone(false);
      },
    }),
    mutationKey,
  });
  const busy = mutation.isPending;

  useEffect(() => {
    if (refusals === focused.current || busy) return;
    focused.current = refusals;
    focus();
  }, [refusals, busy]);

  function set<K extends keyof F>(name: K, value: F[K]) {
    setFields((all) => ({ ...all, [name]: value }));
  }

  return {
    fields,
    setFields,
    set,
    bind: (name) => ({
      value: fields[name],
      onChange: (event) => set(name, event.target.value as F[typeof name]),
    }),
    problem,
    setProblem,
    refuse,
    submit: (event, ...args) => {
      event?.preventDefault();
      if (queryClient.isMutating({ mutationKey, exact: true }) > 0) return;
      submitForm(options.check, fields, args[0] as I, {
        refuse,
        mutate: (sending) => mutation.mutate(sending),
      });
    },
    busy,
    sending: busy ? mutation.variables?.intent : undefined,
    done,
    data: mutation.data,
    reset: (to) => {
      setFields(to ?? options.initial);
      setProblem(null);
    },
  };
}
