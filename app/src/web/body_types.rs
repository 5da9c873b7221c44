//! JSON bodies must have the types the contract declares. The framework reads a JSON number or
//! boolean into a text field as its text (`false` becomes "false"), so a client sending the
//! wrong type would be answered as if it had sent text; here it gets a 400 that names the field.
//! Only types are checked: presence, lengths and wording stay with the modules' own rules.

use kernel::Common;
use std::collections::HashMap;

use kernel::ErrorBody;
use poem::http::{header, StatusCode};
use poem::web::Json;
use poem::{Body, Endpoint, IntoResponse, Request, Response, Result};
use serde_json::Value;

use super::telemetry::ApiRoutes;

/// The request-body schema of every operation that reads JSON, by `METHOD template`.
pub struct BodyShapes {
    bodies: HashMap<String, Value>,
    schemas: serde_json::Map<String, Value>,
}

impl BodyShapes {
    pub fn from_contract(contract: &str) -> Self {
        let doc: Value = serde_json::from_str(contract).unwrap_or(Value::Null);
        let mut bodies = HashMap::new();
        if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
            for (path, item) in paths {
                for (method, op) in item.as_object().into_iter().flatten() {
                    let schema = op
                        .pointer("/requestBody/content")
                        .and_then(Value::as_object)
                        .and_then(|c| c.iter().find(|(kind, _)| kind.contains("json")))
                        .and_then(|(_, media)| media.get("schema"));
                    if let Some(schema) = schema {
                        let key = format!("{} /api{path}", method.to_ascii_uppercase());
                        bodies.insert(key, schema.clone());
                    }
                }
            }
        }
        let schemas = doc
            .pointer("/components/schemas")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        BodyShapes { bodies, schemas }
    }

    fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        let mut schema = schema;
        for _ in 0..8 {
            if let Some(name) = schema
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
            {
                match self.schemas.get(name) {
                    Some(s) => schema = s,
                    None => break,
                }
            } else if let Some(first) = schema
                .get("allOf")
                .and_then(Value::as_array)
                .and_then(|a| a.first())
            {
                schema = first;
            } else {
                break;
            }
        }
        schema
    }

    /// The first place where `value` has another type than `schema` says, as a message.
    fn mismatch(&self, schema: &Value, value: &Value, at: &str) -> Option<String> {
        let schema = self.resolve(schema);
        if value.is_null() {
            // Absent or null: the modules decide whether the field may be left out.
            return None;
        }
        let expected = schema.get("type").and_then(Value::as_str)?;
        let ok = match expected {
            "string" => value.is_string(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            _ => true,
        };
        let name = if at.is_empty() { "the body" } else { at };
        if !ok {
            let kind = match expected {
                "object" => "a JSON object",
                "array" => "an array",
                "integer" => "an integer",
                "string" => "a string",
                "number" => "a number",
                "boolean" => "true or false",
                other => other,
            };
            return Some(format!("{name} must be {kind}"));
        }
        match value {
            Value::Array(items) => {
                let item_schema = schema.get("items")?;
                items
                    .iter()
                    .enumerate()
                    .find_map(|(i, item)| self.mismatch(item_schema, item, &format!("{name}[{i}]")))
            }
            Value::Object(fields) => {
                let properties = schema.get("properties").and_then(Value::as_object)?;
                fields.iter().find_map(|(field, v)| {
                    let field_schema = properties.get(field)?;
                    let path = if at.is_empty() {
                        field.clone()
                    } else {
                        format!("{at}.{field}")
                    };
                    self.mismatch(field_schema, v, &path)
                })
            }
            _ => None,
        }
    }
}

impl BodyShapes {
    /// A form's fields (`name=value` pairs, as a browser posts them) as the JSON body the
    /// operation `key` (`METHOD /api/path`) reads: repeated names make an array where the
    /// contract wants one, a checkbox is `true` where it wants a boolean, and an empty field
    /// is left out unless it is text (so "Select…" placeholders read as "not chosen").
    /// Names the contract does not list are dropped. `None`: the operation reads no JSON.
    pub fn form_json(&self, key: &str, pairs: &[(String, String)]) -> Option<Value> {
        let schema = self.resolve(self.bodies.get(key)?);
        let properties = schema.get("properties").and_then(Value::as_object)?;
        let mut body = serde_json::Map::new();
        for (name, property) in properties {
            let values: Vec<&str> = pairs
                .iter()
                .filter(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
                .collect();
            let property = self.resolve(property);
            let kind = property.get("type").and_then(Value::as_str).unwrap_or("");
            let text = kind == "string" && property.get("enum").is_none();
            let value = match (kind, values.last()) {
                ("array", _) => {
                    Value::from(values.iter().map(|v| v.to_string()).collect::<Vec<_>>())
                }
                ("boolean", Some(v)) => Value::Bool(matches!(*v, "on" | "true" | "1" | "yes")),
                // An unticked checkbox is not sent at all.
                ("boolean", None) => Value::Bool(false),
                (_, Some(v)) if v.trim().is_empty() && !text => continue,
                ("integer", Some(v)) => v
                    .trim()
                    .parse::<i64>()
                    .map_or_else(|_| Value::from(*v), Value::from),
                (_, Some(v)) => Value::from(*v),
                (_, None) => continue,
            };
            body.insert(name.clone(), value);
        }
        Some(Value::Object(body))
    }
}

pub async fn typed_json<E: Endpoint>(
    next: E,
    mut req: Request,
    routes: std::sync::Arc<ApiRoutes>,
    shapes: std::sync::Arc<BodyShapes>,
) -> Result<Response> {
    let json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("application/json"));
    let schema = routes
        .template(req.original_uri().path())
        .and_then(|t| shapes.bodies.get(&format!("{} {t}", req.method())));
    let Some(schema) = schema.filter(|_| json) else {
        return next.call(req).await.map(IntoResponse::into_response);
    };
    let body = req.take_body().into_bytes().await?;
    // Unreadable JSON is left to the framework, which answers it with its own 400.
    if let Ok(value) = serde_json::from_slice::<Value>(&body) {
        if let Some(message) = shapes.mismatch(schema, &value, "") {
            let error = ErrorBody::new(Common::InvalidRequest, message);
            return Ok((StatusCode::BAD_REQUEST, Json(error)).into_response());
        }
    }
    req.set_body(Body::from(body));
    next.call(req).await.map(IntoResponse::into_response)
}

#[cfg(test)]
mod tests {
    use super::BodyShapes;
    use serde_json::json;

    fn shapes() -> BodyShapes {
        let contract = json!({
            "paths": {"/v1/notify": {"post": {"requestBody": {"content": {
                "application/json; charset=utf-8": {"schema": {"$ref": "#/components/schemas/In"}}
            }}}}},
            "components": {"schemas": {"In": {"type": "object", "properties": {
                "email": {"type": "string"},
                "age": {"type": "integer"},
                "digest": {"type": "boolean"},
                "interests": {"type": "array", "items": {"type": "string"}},
                "list": {"allOf": [{"$ref": "#/components/schemas/List"}, {"description": "x"}]}
            }}, "List": {"type": "string", "enum": ["magazine"]}}}
        });
        BodyShapes::from_contract(&contract.to_string())
    }

    #[test]
    fn wrong_types_are_named() {
        let s = shapes();
        let schema = s.bodies.get("POST /api/v1/notify").unwrap().clone();
        let check = |v: serde_json::Value| s.mismatch(&schema, &v, "");
        assert_eq!(
            check(json!({"email": false})).as_deref(),
            Some("email must be a string")
        );
        assert_eq!(
            check(json!({"age": "12"})).as_deref(),
            Some("age must be an integer")
        );
        assert_eq!(
            check(json!({"interests": ["a", 1]})).as_deref(),
            Some("interests[1] must be a string")
        );
        assert_eq!(
            check(json!({"list": 3})).as_deref(),
            Some("list must be a string")
        );
        assert_eq!(
            check(json!([1])).as_deref(),
            Some("the body must be a JSON object")
        );
        assert_eq!(
            check(json!({"email": "a@b.org", "age": null, "extra": 1})),
            None
        );
    }

    #[test]
    fn forms_become_the_json_the_operation_reads() {
        let s = shapes();
        let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let body = s
            .form_json(
                "POST /api/v1/notify",
                &pairs(&[
                    ("email", "a@b.org"),
                    ("age", "15"),
                    ("interests", "Human Rights"),
                    ("interests", "Digital Politics"),
                    ("list", ""),
                    ("intent", "notify"),
                ]),
            )
            .unwrap();
        assert_eq!(
            body,
            json!({"email": "a@b.org", "age": 15, "digest": false, "interests": ["Human Rights", "Digital Politics"]})
        );
        // Text stays text (the module says it is missing); a bad number is left for the
        // type check to name.
        let body = s
            .form_json(
                "POST /api/v1/notify",
                &pairs(&[("email", ""), ("age", "x"), ("digest", "on")]),
            )
            .unwrap();
        assert_eq!(
            body,
            json!({"email": "", "age": "x", "digest": true, "interests": []})
        );
        assert!(s.form_json("POST /api/v1/other", &[]).is_none());
    }
}
