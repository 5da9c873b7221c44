// The editor's markdown helper buttons as pure text edits: given the content
// and the textarea's selection, the new content and the selection to restore.

export type MarkdownAction =
  | "bold"
  | "italic"
  | "h1"
  | "h2"
  | "h3"
  | "bullet"
  | "numbered"
  | "quote"
  | "code"
  | "link"
  | "rule";

export interface TextSelection {
  text: string;
  start: number;
  end: number;
}

/** The toolbar, in display order: the action, its accessible name and what the button shows. */
export const MARKDOWN_TOOLS: readonly {
  action: MarkdownAction;
  label: string;
  symbol: string;
}[] = [
  { action: "bold", label: "Bold", symbol: "B" },
  { action: "italic", label: "Italic", symbol: "I" },
  { action: "h1", label: "Heading 1", symbol: "H1" },
  { action: "h2", label: "Heading 2", symbol: "H2" },
  { action: "h3", label: "Heading 3", symbol: "H3" },
  { action: "bullet", label: "Bullet list", symbol: "•" },
  { action: "numbered", label: "Numbered list", symbol: "1." },
  { action: "quote", label: "Quote", symbol: "❝" },
  { action: "code", label: "Code", symbol: "</>" },
  { action: "link", label: "Link", symbol: "Link" },
  { action: "rule", label: "Horizontal rule", symbol: "―" },
];

const WRAPS = {
  bold: { mark: "**", placeholder: "bold text" },
  italic: { mark: "*", placeholder: "italic text" },
  code: { mark: "`", placeholder: "code" },
} as const;

const HEADINGS = { h1: "# ", h2: "## ", h3: "### " } as const;

const LINK_URL = "https://";

export function applyMarkdown(
  action: MarkdownAction,
  selection: TextSelection,
): TextSelection {
  const sel = normalise(selection);
  switch (action) {
    case "bold":
    case "italic":
    case "code":
      return wrap(sel, WRAPS[action].mark, WRAPS[action].placeholder);
    case "link":
      return link(sel);
    case "h1":
    case "h2":
    case "h3":
      return prefixLines(sel, () => HEADINGS[action], /^#{1,6}[ \t]+/);
    case "bullet":
      return prefixLines(sel, () => "- ");
    case "quote":
      return prefixLines(sel, () => "> ");
    case "numbered":
      return prefixLines(sel, (n) => `${n}. `);
    case "rule":
      return rule(sel);
  }
}

function normalise({ text, start, end }: TextSelection): TextSelection {
  const clamp = (n: number) => Math.max(0, Math.min(text.length, n));
  const [a, b] = [clamp(start), clamp(end)];
  return { text, start: Math.min(a, b), end: Math.max(a, b) };
}

/** Splits the selection into the part to format and the spaces around it,
 * which stay outside the marks ("** x **" is not bold). */
function core({ text, start, end }: TextSelection) {
  const selected = text.slice(start, end);
  const inner = selected.trim();
  const lead = inner ? selected.slice(0, selected.indexOf(inner)) : "";
  const trail = inner ? selected.slice(lead.length + inner.length) : "";
  return {
    before: text.slice(0, start) + lead,
    inner,
    after: trail + text.slice(end),
  };
}

function wrap(sel: TextSelection, mark: string, placeholder: string) {
  const { before, inner, after } = core(sel);
  const body = inner || placeholder;
  const start = before.length + mark.length;
  return {
    text: before + mark + body + mark + after,
    start,
    end: start + body.length,
  };
}

/** `[text](https://)`: with text selected, the address is selected next;
 * with nothing selected, a placeholder text is. */
function link(sel: TextSelection) {
  const { before, inner, after } = core(sel);
  const label = inner || "link text";
  const text = `${before}[${label}](${LINK_URL})${after}`;
  if (!inner) {
    const start = before.length + 1;
    return { text, start, end: start + label.length };
  }
  const start = before.length + label.length + 3;
  return { text, start, end: start + LINK_URL.length };
}

/**
 * Prefixes every line the selection touches. Blank lines inside a larger
 * selection stay blank (they separate paragraphs). `strip` removes a prefix of
 * the same kind first, so H2 on a heading replaces its level.
 */
function prefixLines(
  sel: TextSelection,
  prefix: (n: number) => string,
  strip?: RegExp,
): TextSelection {
  const { text, start } = sel;
  // A selection ending at the start of a line does not include that line.
  const end =
    sel.end > start && text[sel.end - 1] === "\n" ? sel.end - 1 : sel.end;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const next = text.indexOf("\n", end);
  const lineEnd = next < 0 ? text.length : next;

  const lines = text.slice(lineStart, lineEnd).split("\n");
  const single = lines.length === 1;
  let n = 0;
  let first = { added: 0, removed: 0 };
  const changed = lines.map((line, i) => {
    if (!single && line.trim() === "") return line;
    const existing = strip?.exec(line)?.[0] ?? "";
    const added = prefix(++n);
    if (i === 0) first = { added: added.length, removed: existing.length };
    return added + line.slice(existing.length);
  });
  const block = changed.join("\n");
  const out = text.slice(0, lineStart) + block + text.slice(lineEnd);

  if (sel.start === sel.end) {
    // The cursor keeps its place in the line's text, and never lands inside
    // the new prefix.
    const at = Math.max(
      lineStart + first.added,
      start + first.added - first.removed,
    );
    return { text: out, start: at, end: at };
  }
  return { text: out, start: lineStart, end: lineStart + block.length };
}

/** `---` as its own paragraph after the selection; the cursor goes after it. */
function rule({ text, end }: TextSelection): TextSelection {
  const before = text.slice(0, end);
  const after = text.slice(end);
  const lead =
    before === "" || before.endsWith("\n\n")
      ? ""
      : before.endsWith("\n")
        ? "\n"
        : "\n\n";
  const trail = after.startsWith("\n\n")
    ? ""
    : after.startsWith("\n")
      ? "\n"
      : "\n\n";
  const head = before + lead + "---" + trail;
  return { text: head + after, start: head.length, end: head.length };
}
