import type {
  AnchorHTMLAttributes,
  ButtonHTMLAttributes,
  MouseEventHandler,
  ReactNode,
} from "react";
import { Link } from "wouter";

export type ButtonVariant =
  "primary" | "secondary" | "ghost" | "inverse" | "quiet";

interface StyleProps {
  variant?: ButtonVariant;
  size?: "sm" | "md" | "lg";
  className?: string;
}

function buttonClass({
  variant = "primary",
  size = "md",
  className,
}: StyleProps) {
  return [
    "btn",
    `btn-${variant}`,
    size === "md" ? "" : `btn-${size}`,
    className ?? "",
  ]
    .filter(Boolean)
    .join(" ");
}

interface ButtonLinkProps extends StyleProps {
  href: string;
  children: ReactNode;
  /** A plain link that reloads the page instead of routing in-app. */
  native?: boolean;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
  "aria-describedby"?: string;
}

/** A link styled as a button; in-app paths route client-side. */
export function ButtonLink({
  href,
  children,
  native,
  onClick,
  ...rest
}: ButtonLinkProps) {
  const className = buttonClass(rest);
  const external = /^(https?:|mailto:)/.test(href);
  if (native || external) {
    const attrs: AnchorHTMLAttributes<HTMLAnchorElement> = external
      ? { target: "_blank", rel: "noopener noreferrer" }
      : {};
    return (
      <a href={href} className={className} onClick={onClick} {...attrs}>
        {children}
      </a>
    );
  }
  return (
    <Link
      href={href}
      className={className}
      onClick={onClick}
      aria-describedby={rest["aria-describedby"]}
    >
      {children}
    </Link>
  );
}

type ButtonProps = StyleProps & ButtonHTMLAttributes<HTMLButtonElement>;

export function Button({
  variant,
  size,
  className,
  type,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type ?? "button"}
      className={buttonClass({ variant, size, className })}
      {...rest}
    />
  );
}
