import { ButtonLink } from "@/components/Button";

/**
 * "Notify Me When It's Ready". The sign-up dialog is a later task; until then
 * the button leads to the contact page.
 */
export function NotifyButton() {
  return (
    <ButtonLink href="/contact-us" size="lg">
      Notify Me When It&apos;s Ready
    </ButtonLink>
  );
}
