//! The published contract: what poem-openapi derives from the modules' handlers, plus the
//! answers the HTTP edge can give on any operation (so a client generated from the contract
//! knows every status it may see):
//! - 400 when a parameter or body cannot be read, or carries control characters;
//! - 403 when a state-changing call comes from another site;
//! - 413 when a body is over the route's cap, 415 when its type is not the one declared;
//! - 503 with `Retry-After` on a signed-in operation whose session cannot be checked (its
//!   database is unreachable), never 401.

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

/// The contract with the edge's answers on every operation, as pretty JSON.
pub fn complete(spec: &str) -> String {
    let Ok(mut doc) = serde_json::from_str::<Value>(spec) else {
        return spec.to_string();
    };
    if let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) {
        for item in paths.values_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for (method, op) in item.iter_mut() {
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
                if signed_in {
                    add(
                        responses,
                        "503",
                        "The session could not be checked for a moment (the database is \
                         unreachable): try again after `Retry-After` seconds.",
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
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_string())
}

#[cfg(test)]
mod tests {
    use super::complete;

    #[test]
    fn every_operation_documents_the_edge_answers() {
        let spec = r#"{"paths": {
            "/v1/a": {"get": {"responses": {"200": {"description": ""}}}},
            "/v1/b": {"post": {"requestBody": {}, "responses": {
                "400": {"description": "the module's own"}}}},
            "/v1/c": {"get": {"responses": {
                "400": {"description": "a page", "content": {"text/html": {}}}}}},
            "/v1/d": {"get": {"security": [{"StaffSession": []}], "responses": {}}}
        }}"#;
        let doc: serde_json::Value = serde_json::from_str(&complete(spec)).unwrap();
        let get = &doc["paths"]["/v1/a"]["get"]["responses"];
        assert!(get.get("400").is_some());
        assert!(get.get("403").is_none(), "reads are not cross-site checked");
        assert!(get.get("413").is_none());
        assert!(
            get.get("503").is_none(),
            "not signed in: no session to check"
        );
        let signed_in = &doc["paths"]["/v1/d"]["get"]["responses"]["503"];
        assert!(signed_in["headers"].get("Retry-After").is_some());
        let post = &doc["paths"]["/v1/b"]["post"]["responses"];
        assert_eq!(post["400"]["description"], "the module's own");
        for status in ["403", "413", "415"] {
            assert!(post.get(status).is_some(), "{status} documented");
        }
        let page = &doc["paths"]["/v1/c"]["get"]["responses"]["400"]["content"];
        assert!(page.get("text/html").is_some(), "the page stays");
        assert!(
            page.get(super::ERROR_TYPE).is_some(),
            "the edge's JSON is added"
        );
    }
}
