import type { ReactNode } from "react";

interface BadgeProps {
  children: ReactNode;
  tone?: "accent" | "soft" | "gold" | "outline";
}

export function Badge({ children, tone = "soft" }: BadgeProps) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
