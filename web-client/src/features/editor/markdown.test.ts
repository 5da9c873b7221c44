import { describe, expect, it } from "vitest";
import {
  applyMarkdown,
  MARKDOWN_TOOLS,
  type MarkdownAction,
  type TextSelection,
} from "./markdown";

/** Writes a selection as text with [ and ] around it (| for a cursor). */
function show({ text, start, end }: TextSelection): string {
  if (start === end) return text.slice(0, start) + "|" + text.slice(end);
  return (
    text.slice(0, start) + "[" + text.slice(start, end) + "]" + text.slice(end)
  );
}

/** The inverse of `show`: "a [b] c" selects b, "a|b" is a cursor. */
function parse(marked: string): TextSelection {
  const cursor = marked.indexOf("|");
  if (cursor >= 0) {
    const text = marked.replace("|", "");
    return { text, start: cursor, end: cursor };
  }
  const start = marked.indexOf("[");
  const end = marked.indexOf("]") - 1;
  return { text: marked.replace("[", "").replace("]", ""), start, end };
}

function run(action: MarkdownAction, marked: string): string {
  return show(applyMarkdown(action, parse(marked)));
}

describe("inline marks", () => {
  it("wraps the selection and keeps it selected", () => {
    expect(run("bold", "a [word] here")).toBe("a **[word]** here");
    expect(run("italic", "a [word] here")).toBe("a *[word]* here");
    expect(run("code", "run [npm test] now")).toBe("run `[npm test]` now");
  });

  it("leaves spaces around the selection outside the marks", () => {
    expect(run("bold", "a[ word ]here")).toBe("a **[word]** here");
  });

  it("inserts a selected placeholder at a cursor", () => {
    expect(run("bold", "a |b")).toBe("a **[bold text]**b");
    expect(run("italic", "|")).toBe("*[italic text]*");
    expect(run("code", "x|")).toBe("x`[code]`");
  });
});

describe("link", () => {
  const selected = (s: TextSelection) => s.text.slice(s.start, s.end);

  it("links the selection and selects the address to type", () => {
    const out = applyMarkdown("link", {
      text: "see the report now",
      start: 4,
      end: 14,
    });
    expect(out.text).toBe("see [the report](https://) now");
    expect(selected(out)).toBe("https://");
  });

  it("inserts a selected placeholder text at a cursor", () => {
    const out = applyMarkdown("link", { text: "see ", start: 4, end: 4 });
    expect(out.text).toBe("see [link text](https://)");
    expect(selected(out)).toBe("link text");
  });
});

describe("line prefixes", () => {
  it("prefixes the current line, keeping the cursor in its text", () => {
    expect(run("h1", "one\ntw|o\nthree")).toBe("one\n# tw|o\nthree");
    expect(run("h2", "tw|o")).toBe("## tw|o");
    expect(run("h3", "|")).toBe("### |");
    expect(run("bullet", "item|")).toBe("- item|");
    expect(run("quote", "|said")).toBe("> |said");
    expect(run("numbered", "fi|rst")).toBe("1. fi|rst");
  });

  it("replaces an existing heading level instead of stacking", () => {
    expect(run("h2", "# Tit|le")).toBe("## Tit|le");
    expect(run("h1", "### |Title")).toBe("# |Title");
    expect(run("h3", "[## Title]")).toBe("[### Title]");
  });

  it("prefixes every selected line, skipping blank ones, and selects the block", () => {
    expect(run("bullet", "x\n[a\nb\n\nc]\ny")).toBe("x\n[- a\n- b\n\n- c]\ny");
    expect(run("numbered", "[a\nb\n\nc]")).toBe("[1. a\n2. b\n\n3. c]");
    expect(run("quote", "o[ne\ntw]o")).toBe("[> one\n> two]");
  });

  it("does not touch the line after a selection ending at its start", () => {
    expect(run("bullet", "[a\nb\n]c")).toBe("[- a\n- b]\nc");
  });
});

describe("horizontal rule", () => {
  it("becomes its own paragraph after the selection", () => {
    expect(run("rule", "one|")).toBe("one\n\n---\n\n|");
    expect(run("rule", "[one] two")).toBe("one\n\n---\n\n| two");
    expect(run("rule", "|")).toBe("---\n\n|");
  });

  it("reuses the blank lines already there", () => {
    expect(run("rule", "one\n\n|two")).toBe("one\n\n---\n\n|two");
    expect(run("rule", "one|\n\ntwo")).toBe("one\n\n---|\n\ntwo");
    expect(run("rule", "one\n|\ntwo")).toBe("one\n\n---\n|\ntwo");
  });
});

it("tolerates a reversed or out-of-range selection", () => {
  expect(show(applyMarkdown("bold", { text: "abc", start: 9, end: 1 }))).toBe(
    "a**[bc]**",
  );
});

it("gives every tool a distinct accessible label", () => {
  const labels = MARKDOWN_TOOLS.map((t) => t.label);
  expect(new Set(labels).size).toBe(11);
  expect(MARKDOWN_TOOLS.map((t) => t.action)).toEqual([
    "bold",
    "italic",
    "h1",
    "h2",
    "h3",
    "bullet",
    "numbered",
    "quote",
    "code",
    "link",
    "rule",
  ]);
});
