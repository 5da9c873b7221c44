//! The published contract: what poem-openapi derives from the modules' handlers, plus the
//! answers the HTTP edge can give on any operation (so a client generated from the contract
//! knows every status it may see):
//! - 400 when a parameter or body cannot be read, or carries control characters (which every
//!   text of the contract rules out with a `pattern`, so that a client generated from it, or
//!   a fuzzer, knows which text the edge refuses);
//! - 403 when a state-changing call comes from another site;
//! - 413 when a body is over the route's cap, 415 when its type is not the one declared;
//! - 503 with `Retry-After` when the database cannot be reached for a moment: on a signed-in
//!   operation whose session cannot be checked (never 401), and on any operation that failed
//!   meanwhile (`errors::database_outage`).

// Text in a body: no NUL (`control_chars`; multipart fields are checked by their modules).
use kernel::text::BODY_TEXT;
use serde_json::{json, Map, Value};

const ERROR_SCHEMA: &str = "#/components/schemas/ApiError";
const ERROR_TYPE: &str = "application/json; charset=utf-8";

fn error_answer(description: &str) -> Value {
    json!({
        "description": description,
        "content": { ERROR_TYPE: { "schema": { "$ref": ERROR_SCHEMA } } }
    })
}

/// Adds `status` to `responses`; where the operation documents it already with another body
/// (an HTML page, say), the edge's JSON error body is added beside it.
fn add(responses: &mut Map<String, Value>, status: &str, description: &str) {
    let answer = responses
        .entry(status.to_string())
        .or_insert_with(|| error_answer(description));
    if let Some(content) = answer.get_mut("content").and_then(Value::as_object_mut) {
        content
            .entry(ERROR_TYPE)
            .or_insert_with(|| json!({ "schema": { "$ref": ERROR_SCHEMA } }));
    }
}

/// Text of an address (path or query, once percent-decoded): no C0 control character or DEL
/// (`control_chars::address_has_control`).
const ADDRESS_TEXT: &str = "^[^\\u0000-\\u001F\\u007F]*$";

/// Adds `pattern` to every free text of `schema` (strings that are not an enum, a file or
/// already patterned), through its properties, items and variants.
fn rule_out(schema: &mut Value, pattern: &str) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    let free_text = obj.get("type").and_then(Value::as_str) == Some("string")
        && !obj.contains_key("enum")
        && !obj.contains_key("pattern")
        && obj.get("format").and_then(Value::as_str) != Some("binary");
    if free_text {
        obj.insert("pattern".into(), Value::from(pattern));
    }
    if let Some(props) = obj.get_mut("properties").and_then(Value::as_object_mut) {
        for p in props.values_mut() {
            rule_out(p, pattern);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = obj.get_mut(key) {
            rule_out(inner, pattern);
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        if let Some(list) = obj.get_mut(key).and_then(Value::as_array_mut) {
            for inner in list {
                rule_out(inner, pattern);
            }
        }
    }
}

/// The names of the component schemas `value` refers to, and those they refer to in turn.
fn referred(value: &Value, schemas: &Map<String, Value>, found: &mut Vec<String>) {
    match value {
        Value::Object(obj) => {
            if let Some(name) = obj
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
            {
                if !found.iter().any(|f| f == name) {
                    found.push(name.to_string());
                    if let Some(schema) = schemas.get(name) {
                        referred(schema, schemas, found);
                    }
                }
            }
            obj.values().for_each(|v| referred(v, schemas, found));
        }
        Value::Array(list) => list.iter().for_each(|v| referred(v, schemas, found)),
        _ => {}
    }
}

/// A member a request may leave out may also be `null`, read the same way (the framework
/// reads both as "not given"): the contract says so.
fn optional_may_be_null(schema: &mut Map<String, Value>) {
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    for (name, prop) in props.iter_mut() {
        if required.contains(name) {
            continue;
        }
        let Some(obj) = prop.as_object_mut() else {
            continue;
        };
        if let Some(reference) = obj.remove("$ref") {
            // OpenAPI 3.0 ignores siblings of `$ref`: wrap it.
            obj.insert("allOf".into(), json!([{ "$ref": reference }]));
        }
        obj.insert("nullable".into(), Value::Bool(true));
    }
}

/// The contract with the edge's answers on every operation, as pretty JSON.
pub fn complete(spec: &str) -> String {
    let closed: Vec<&str> = media::SINGLE_FILE_FORMS
        .iter()
        .chain(outreach::NAMED_PART_FORMS.iter())
        .copied()
        .collect();
    complete_closing(spec, &closed)
}

/// [`complete`], where the multipart forms of `closed_forms` (operation ids) name all their
/// parts.
fn complete_closing(spec: &str, closed_forms: &[&str]) -> String {
    let Ok(mut doc) = serde_json::from_str::<Value>(spec) else {
        return spec.to_string();
    };
    // Objects a request sends name all their members: the modules read them with
    // `deny_unknown_fields`, so a misspelt member is a 400, never silently dropped.
    let mut sent = Vec::new();
    if let (Some(paths), Some(schemas)) = (
        doc.get("paths"),
        doc.pointer("/components/schemas")
            .and_then(Value::as_object),
    ) {
        for op in paths.as_object().into_iter().flat_map(|p| p.values()) {
            for body in op
                .as_object()
                .into_iter()
                .flat_map(|o| o.values())
                .filter_map(|o| o.get("requestBody"))
            {
                referred(body, schemas, &mut sent);
            }
        }
    }
    for name in &sent {
        if let Some(schema) = doc
            .pointer_mut(&format!("/components/schemas/{name}"))
            .and_then(Value::as_object_mut)
        {
            if schema.get("type").and_then(Value::as_str) == Some("object") {
                schema.insert("additionalProperties".into(), Value::Bool(false));
                optional_may_be_null(schema);
            }
        }
    }
    if let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        for schema in schemas.values_mut() {
            rule_out(schema, BODY_TEXT);
        }
    }
    if let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) {
        for item in paths.values_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for (method, op) in item.iter_mut() {
                if let Some(params) = op.get_mut("parameters").and_then(Value::as_array_mut) {
                    for param in params {
                        let in_address = matches!(
                            param.get("in").and_then(Value::as_str),
                            Some("path" | "query")
                        );
                        if let (true, Some(schema)) = (in_address, param.get_mut("schema")) {
                            rule_out(schema, ADDRESS_TEXT);
                        }
                    }
                }
                let closed = op
                    .get("operationId")
                    .and_then(Value::as_str)
                    .is_some_and(|id| closed_forms.contains(&id));
                if let (true, Some(form)) = (
                    closed,
                    op.pointer_mut("/requestBody/content/multipart~1form-data/schema")
                        .and_then(Value::as_object_mut),
                ) {
                    form.insert("additionalProperties".into(), Value::Bool(false));
                }
                if let Some(content) = op
                    .pointer_mut("/requestBody/content")
                    .and_then(Value::as_object_mut)
                {
                    for media in content.values_mut() {
                        if let Some(schema) = media.get_mut("schema") {
                            rule_out(schema, BODY_TEXT);
                        }
                    }
                }
                let has_body = op.get("requestBody").is_some();
                let signed_in = op
                    .get("security")
                    .and_then(Value::as_array)
                    .is_some_and(|s| !s.is_empty());
                let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
                    continue;
                };
                add(
                    responses,
                    "400",
                    "A parameter or the body could not be read, or holds control characters \
                     such as NUL.",
                );
                if !matches!(method.as_str(), "get" | "head" | "options") {
                    add(
                        responses,
                        "403",
                        "The request came from another site (its `Origin` is not this site's).",
                    );
                }
                if has_body {
                    add(
                        responses,
                        "413",
                        "The body is larger than this operation accepts.",
                    );
                    add(
                        responses,
                        "415",
                        "The body is not of the type this operation reads.",
                    );
                }
                add(
                    responses,
                    "503",
                    if signed_in {
                        "The database could not be reached for a moment (the session could not \
                         be checked): try again after `Retry-After` seconds."
                    } else {
                        "The database could not be reached for a moment: try again after \
                         `Retry-After` seconds."
                    },
                );
                if let Some(answer) = responses.get_mut("503").and_then(Value::as_object_mut) {
                    answer.entry("headers").or_insert_with(|| {
                        json!({ "Retry-After": {
                            "description": "Seconds to wait before trying again.",
                            "schema": { "type": "integer" } } })
                    });
                }
            }
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_string())
}

#[cfg(test)]
mod tests;
