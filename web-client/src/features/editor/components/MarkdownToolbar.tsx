import {
  MARKDOWN_TOOLS,
  type MarkdownAction,
} from "@/features/editor/markdown";

interface Props {
  /** The id of the textarea the buttons edit. */
  controls: string;
  onApply: (action: MarkdownAction) => void;
}

export function MarkdownToolbar({ controls, onApply }: Props) {
  return (
    <div
      className="md-toolbar"
      role="group"
      aria-label="Formatting"
      aria-controls={controls}
    >
      {MARKDOWN_TOOLS.map((tool) => (
        <button
          key={tool.action}
          type="button"
          className={`md-tool md-tool-${tool.action}`}
          aria-label={tool.label}
          title={tool.label}
          onClick={() => onApply(tool.action)}
        >
          <span aria-hidden="true">{tool.symbol}</span>
        </button>
      ))}
    </div>
  );
}
