import { useState } from "react";
import { Button } from "@/components/Button";
import type { IssuedKey } from "@/features/dashboards/types";

/**
 * A freshly issued access key. The server keeps only its hash, so this is the
 * one time anybody sees it: the admin copies it and hands it over.
 */
export function IssuedKeyNotice({
  issued,
  onDone,
}: {
  issued: IssuedKey;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(issued.access_key);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, or permission refused): the key is
      // selectable on the page.
      setCopied(false);
    }
  }

  return (
    <div className="issued-key" role="alert">
      <p className="issued-key-title">
        New access key for <strong>{issued.member.name}</strong> (
        {issued.member.role})
      </p>
      <p className="muted">
        Copy it now and give it to them privately: it is not shown again.
      </p>
      <div className="issued-key-row">
        <code className="issued-key-value" aria-label="Access key">
          {issued.access_key}
        </code>
        <Button size="sm" onClick={() => void copy()}>
          {copied ? "Copied" : "Copy"}
        </Button>
        <Button size="sm" variant="quiet" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
