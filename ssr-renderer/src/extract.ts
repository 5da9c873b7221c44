import beasties from "beasties";

// The package's types describe it as CommonJS, whose default export would be the module;
// Node loads its ES module build, whose default export is the class itself.
const Beasties = beasties as unknown as typeof beasties.default;

/**
 * Finds the rules of the stylesheets `hrefs` (of the web client built in `clientDir`) that
 * apply to the elements of a page's markup, with the media queries, keyframes and custom
 * properties they use, minified. Beasties parses the stylesheets for each markup: the build
 * asks once per kind of page, the renderer only for a page unlike the build's samples.
 */
export function extractor(
  clientDir: string,
  hrefs: string[],
): (markup: string) => Promise<string> {
  const links = hrefs
    .map((href) => `<link rel="stylesheet" href="${href}">`)
    .join("");
  const inliner = new Beasties({
    path: clientDir,
    publicPath: "/",
    preload: "body",
    pruneSource: false,
    mergeStylesheets: true,
    reduceInlineStyles: false,
    inlineFonts: false,
    compress: true,
    logLevel: "warn",
  });
  return async (markup) => {
    const html = await inliner.process(
      `<!doctype html><html><head>${links}</head><body><div id="root">${markup}</div></body></html>`,
    );
    return /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
  };
}
