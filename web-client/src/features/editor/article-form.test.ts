import { describe, expect, it } from "vitest";
import { messageFor } from "@/lib/problems";
import {
  editorProblem,
  formFromArticle,
  MESSAGES,
  toInput,
  validateForm,
  type ArticleForm,
} from "./article-form";
import type { StaffArticle } from "./types";

const FILLED: ArticleForm = {
  title: "  A title ",
  subtitle: "   ",
  content: "\n**Body**\n",
  category: "Human Rights",
  coverImage: "",
  featured: true,
  authorId: "w1",
};

describe("formFromArticle", () => {
  it("starts a new article in Youth Activism, not featured", () => {
    expect(formFromArticle(null)).toEqual({
      title: "",
      subtitle: "",
      content: "",
      category: "Youth Activism",
      coverImage: "",
      featured: false,
      authorId: "",
    });
  });

  it("loads an article, reading null optional fields as empty", () => {
    const article = {
      id: "a1",
      slug: "t",
      title: "T",
      subtitle: null,
      excerpt: "",
      category: "Climate Justice",
      cover_image: null,
      featured: false,
      author_id: "w2",
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
      read_time: "1 min",
      status: "published",
      content: "Body",
    } as unknown as StaffArticle;
    expect(formFromArticle(article)).toMatchObject({
      title: "T",
      subtitle: "",
      coverImage: "",
      category: "Climate Justice",
      authorId: "w2",
    });
  });
});

describe("validateForm", () => {
  it("requires a title and content after trimming", () => {
    expect(
      validateForm({ ...FILLED, title: "  ", content: "\n\t" }, false),
    ).toEqual({ title: MESSAGES.title, content: MESSAGES.content });
    expect(validateForm(FILLED, false)).toEqual({});
  });

  it("requires a writer only when choosing one", () => {
    const form = { ...FILLED, authorId: "" };
    expect(validateForm(form, false)).toEqual({});
    expect(validateForm(form, true)).toEqual({
      writer: "Please select a writer for the article",
    });
  });
});

describe("editorProblem", () => {
  it("names each field at fault with its own message, the first one toasted", () => {
    const problem = editorProblem(
      validateForm({ ...FILLED, title: "", content: "", authorId: "" }, true),
    );
    expect(problem).toEqual({
      title: "Error",
      message: MESSAGES.writer,
      fields: ["writer", "title", "content"],
      messages: {
        writer: MESSAGES.writer,
        title: MESSAGES.title,
        content: MESSAGES.content,
      },
    });
    expect(messageFor(problem, "content")).toBe(MESSAGES.content);
  });

  it("is null when nothing is at fault", () => {
    expect(editorProblem(validateForm(FILLED, true))).toBeNull();
  });
});

describe("toInput", () => {
  it("trims, leaves out empty optional texts and sets the status", () => {
    expect(toInput(FILLED, "draft", false)).toEqual({
      title: "A title",
      content: "**Body**",
      category: "Human Rights",
      featured: true,
      status: "draft",
    });
  });

  it("sends a trimmed subtitle and cover, and the writer when choosing one", () => {
    const form = {
      ...FILLED,
      subtitle: " Sub ",
      coverImage: " https://example.org/c.jpg ",
    };
    expect(toInput(form, "published", true)).toMatchObject({
      subtitle: "Sub",
      cover_image: "https://example.org/c.jpg",
      author_id: "w1",
      status: "published",
    });
  });
});
