use super::complete_closing;

#[test]
fn free_text_rules_out_the_characters_the_edge_refuses() {
    let spec = r#"{"paths": {"/v1/a/{id}": {"post": {
        "parameters": [
            {"name": "id", "in": "path", "schema": {"type": "string"}},
            {"name": "n", "in": "query", "schema": {"type": "integer"}},
            {"name": "x-h", "in": "header", "schema": {"type": "string"}}],
        "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object",
            "properties": {"name": {"type": "string"},
                           "file": {"type": "string", "format": "binary"}}}}}},
        "responses": {}}}},
      "components": {"schemas": {"In": {"type": "object", "properties": {
        "text": {"type": "string"},
        "kind": {"type": "string", "enum": ["a", "b"]},
        "slug": {"type": "string", "pattern": "^[a-z]+$"},
        "tags": {"type": "array", "items": {"type": "string"}}}}}}}"#;
    let doc: serde_json::Value = serde_json::from_str(&complete_closing(spec, &[])).unwrap();
    let op = &doc["paths"]["/v1/a/{id}"]["post"];
    assert!(
        doc["components"]["schemas"]["In"]
            .get("additionalProperties")
            .is_none(),
        "not sent by any request"
    );
    assert_eq!(
        op["parameters"][0]["schema"]["pattern"],
        super::ADDRESS_TEXT
    );
    assert!(
        op["parameters"][1]["schema"].get("pattern").is_none(),
        "not text"
    );
    assert!(
        op["parameters"][2]["schema"].get("pattern").is_none(),
        "not the address"
    );
    let form = &op["requestBody"]["content"]["multipart/form-data"]["schema"]["properties"];
    assert_eq!(form["name"]["pattern"], super::BODY_TEXT);
    assert!(form["file"].get("pattern").is_none(), "a file is bytes");
    let input = &doc["components"]["schemas"]["In"]["properties"];
    assert_eq!(input["text"]["pattern"], super::BODY_TEXT);
    assert!(input["kind"].get("pattern").is_none());
    assert_eq!(
        input["slug"]["pattern"], "^[a-z]+$",
        "a module's own pattern stays"
    );
    assert_eq!(input["tags"]["items"]["pattern"], super::BODY_TEXT);
    // The patterns say what the edge checks.
    let address = regex::Regex::new(super::ADDRESS_TEXT).unwrap();
    for (text, allowed) in [
        ("plain, with é", true),
        ("a\u{c}b", false),
        ("\u{7f}", false),
        ("tab\t", false),
    ] {
        let edge = !crate::web::control_chars::address_has_control(text, None);
        assert_eq!(
            (address.is_match(text), edge),
            (allowed, allowed),
            "{text:?}"
        );
    }
    let body = regex::Regex::new(super::BODY_TEXT).unwrap();
    assert!(body.is_match("tab\tand\nlines") && !body.is_match("nul\0"));
}

#[test]
fn objects_a_request_sends_name_all_their_members() {
    let spec = r##"{"paths": {"/v1/a": {"put": {
        "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Input"}}}},
        "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Output"}}}}}}}},
      "components": {"schemas": {
        "Input": {"type": "object", "required": ["inner"], "properties": {
            "inner": {"$ref": "#/components/schemas/Inner"},
            "left_out": {"type": "boolean"},
            "kind": {"$ref": "#/components/schemas/Kind"}}},
        "Kind": {"type": "string", "enum": ["a"]},
        "Inner": {"type": "object", "properties": {"self": {"$ref": "#/components/schemas/Inner"}}},
        "Output": {"type": "object", "properties": {}}}}}"##;
    let doc: serde_json::Value = serde_json::from_str(&complete_closing(spec, &[])).unwrap();
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["Input"]["additionalProperties"], false);
    assert_eq!(
        schemas["Inner"]["additionalProperties"], false,
        "nested, even in a cycle"
    );
    assert!(
        schemas["Output"].get("additionalProperties").is_none(),
        "answers may grow"
    );
    // What may be left out may be null; a reference is wrapped to say so.
    let input = &schemas["Input"]["properties"];
    assert!(input["inner"].get("nullable").is_none(), "required");
    assert_eq!(input["left_out"]["nullable"], true);
    assert_eq!(input["kind"]["nullable"], true);
    assert_eq!(
        input["kind"]["allOf"][0]["$ref"],
        "#/components/schemas/Kind"
    );
}

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
    let doc: serde_json::Value = serde_json::from_str(&complete_closing(spec, &[])).unwrap();
    let get = &doc["paths"]["/v1/a"]["get"]["responses"];
    assert!(get.get("400").is_some());
    assert!(get.get("403").is_none(), "reads are not cross-site checked");
    assert!(get.get("413").is_none());
    for path in ["/v1/a", "/v1/d"] {
        let outage = &doc["paths"][path]["get"]["responses"]["503"];
        assert!(outage["headers"].get("Retry-After").is_some(), "{path}");
    }
    let post = &doc["paths"]["/v1/b"]["post"]["responses"];
    assert_eq!(post["400"]["description"], "the module's own");
    for status in ["403", "413", "415"] {
        assert!(post.get(status).is_some(), "{status} documented");
    }
    let page = &doc["paths"]["/v1/c"]["get"]["responses"]["400"]["content"];
    assert!(
        doc["paths"]["/v1/d"]["get"]["responses"]
            .get("400")
            .is_some(),
        "every operation"
    );
    assert!(page.get("text/html").is_some(), "the page stays");
    assert!(
        page.get(super::ERROR_TYPE).is_some(),
        "the edge's JSON is added"
    );
}

#[test]
fn closed_forms_name_all_their_parts() {
    let spec = r##"{"openapi": "3.0.0", "paths": {
      "/up": {"post": {"operationId": "upload",
        "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object",
          "properties": {"file": {"type": "string", "format": "binary"}}}}}},
        "responses": {}}},
      "/apply": {"post": {"operationId": "apply",
        "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object",
          "properties": {"name": {"type": "string"}}}}}},
        "responses": {}}}}}"##;
    let doc: serde_json::Value =
        serde_json::from_str(&complete_closing(spec, &["upload"])).unwrap();
    let form = |path: &str| {
        doc["paths"][path]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"]
            .clone()
    };
    assert_eq!(form("/up")["additionalProperties"], false);
    assert!(form("/apply").get("additionalProperties").is_none());
}
