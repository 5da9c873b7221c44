// Writes the contract's field rules (lengths, ranges, item counts) of every request body as
// a TypeScript module, so the forms' checks use the server's numbers rather than copies.
//   usage: node scripts/gen-rules.mjs [out-file]   (default src/api/rules.gen.ts)
import { readFileSync, writeFileSync } from "node:fs";

const api = JSON.parse(
  readFileSync(new URL("../../openapi.json", import.meta.url), "utf8"),
);
const RULES = ["minLength", "maxLength", "minimum", "maximum", "maxItems"];
const out = {};

function take(name, schema) {
  const fields = {};
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    const rules = {};
    for (const rule of RULES)
      if (rule in property) rules[rule] = property[rule];
    if (Object.keys(rules).length > 0) fields[field] = rules;
  }
  if (Object.keys(fields).length > 0) out[name] = fields;
}

// JSON bodies: the input schemas (closed to unknown fields).
for (const [name, schema] of Object.entries(api.components.schemas)) {
  if (schema.type === "object" && schema.additionalProperties === false)
    take(name, schema);
}
// Multipart bodies, by the operation that takes them.
for (const operations of Object.values(api.paths)) {
  for (const operation of Object.values(operations)) {
    const body =
      operation.requestBody?.content?.["multipart/form-data"]?.schema;
    if (body && operation.operationId) take(operation.operationId, body);
  }
}

const sorted = Object.fromEntries(
  Object.keys(out)
    .sort()
    .map((name) => [name, out[name]]),
);
const file = process.argv[2] ?? "src/api/rules.gen.ts";
writeFileSync(
  file,
  "// Generated from openapi.json by scripts/gen-rules.mjs (npm run gen-api): do not edit.\n" +
    "// The field rules of each request body, as the server enforces them.\n" +
    `export const rules = ${JSON.stringify(sorted, null, 2)} as const;\n`,
);
