import type { InputHTMLAttributes, ReactNode } from "react";

type InputFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: ReactNode;
  /** The problem with this field, shown under it and tied to the input. */
  error?: string;
};

/** `aria-invalid` and `aria-describedby` of a control with `error` (and a hint). */
export function invalidProps(id: string, error?: string, hint?: string) {
  const describedBy = [error ? `${id}-error` : "", hint ?? ""]
    .filter(Boolean)
    .join(" ");
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy || undefined,
  } as const;
}

/** The message under a field at fault. */
export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className="field-error">
      {error}
    </p>
  ) : null;
}

/** A labelled input in the forms' `.field` layout; every other prop goes to the input. */
export function InputField({ id, label, error, ...input }: InputFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...invalidProps(id, error)} {...input} />
      <FieldError id={id} error={error} />
    </div>
  );
}
