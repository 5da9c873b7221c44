import { InputField } from "@/components/InputField";

/** "New password" and "Confirm new password", as the reset and account pages ask them. */
export function NewPasswordFields({
  idPrefix,
  password,
  confirm,
  onPassword,
  onConfirm,
}: {
  idPrefix: string;
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
}) {
  return (
    <>
      <InputField
        id={idPrefix}
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(event) => onPassword(event.target.value)}
      />
      <InputField
        id={`${idPrefix}-confirm`}
        label="Confirm new password"
        name="confirm_password"
        type="password"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(event) => onConfirm(event.target.value)}
      />
    </>
  );
}
