//! The language server through lsp-server's in-memory connection: the
//! handshake, diagnostics on open (RH001 at its line), hover, go to
//! definition, and the quick fix whose edit, applied, removes RH001 on
//! the next change.

use std::path::Path;
use std::thread::JoinHandle;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types::notification::{
    DidChangeTextDocument, DidOpenTextDocument, Exit, Initialized, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, GotoDefinition, HoverRequest, Initialize, Request as _, Shutdown,
};
use lsp_types::*;
use replay_audit::lsp::position::uri_of;
use serde_json::{Value, json};

struct Client {
    conn: Connection,
    server: Option<JoinHandle<()>>,
    next: i32,
}

impl Client {
    fn start() -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || {
            replay_audit::lsp::serve(&server, replay_audit::manifest::Limits::default())
                .expect("serves");
        });
        let mut c = Client {
            conn,
            server: Some(handle),
            next: 0,
        };
        let init = c.request(Initialize::METHOD, json!({ "capabilities": {} }));
        assert_eq!(init["capabilities"]["hoverProvider"], json!(true));
        assert_eq!(init["capabilities"]["textDocumentSync"], json!(1));
        c.notify(Initialized::METHOD, json!({}));
        c
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = RequestId::from(self.next);
        let req = Request::new(id.clone(), method.to_string(), params);
        self.conn.sender.send(req.into()).unwrap();
        loop {
            match self.conn.receiver.recv().unwrap() {
                Message::Response(r) if r.id == id => {
                    return r
                        .response_result
                        .unwrap_or_else(|e| panic!("{method}: {}", e.message));
                }
                _ => {}
            }
        }
    }

    fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.to_string(), params);
        self.conn.sender.send(n.into()).unwrap();
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&self, uri: &Uri) -> Vec<Diagnostic> {
        loop {
            if let Message::Notification(n) = self.conn.receiver.recv().unwrap()
                && n.method == PublishDiagnostics::METHOD
            {
                let p: PublishDiagnosticsParams = serde_json::from_value(n.params).unwrap();
                if &p.uri == uri {
                    return p.diagnostics;
                }
            }
        }
    }

    fn stop(mut self) {
        self.request(Shutdown::METHOD, Value::Null);
        self.notify(Exit::METHOD, Value::Null);
        self.server.take().unwrap().join().unwrap();
    }
}

fn codes(d: &[Diagnostic]) -> Vec<String> {
    d.iter()
        .map(|d| match &d.code {
            Some(NumberOrString::String(s)) => s.clone(),
            _ => "-".into(),
        })
        .collect()
}

/// The bundled example in a folder of its own (no policy file above it).
fn example(dir: &Path) -> (std::path::PathBuf, String) {
    let text = std::fs::read_to_string("examples/payouts.yaml").unwrap();
    let path = dir.join("payouts.yaml");
    std::fs::write(&path, &text).unwrap();
    (path, text)
}

fn open(c: &Client, uri: &Uri, text: &str) {
    c.notify(
        DidOpenTextDocument::METHOD,
        json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
    );
}

#[test]
fn diagnostics_on_open_point_at_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = example(dir.path());
    let uri = uri_of(&path).unwrap();
    let c = Client::start();
    open(&c, &uri, &text);
    let d = c.diagnostics(&uri);
    assert_eq!(codes(&d), ["RH001", "RH005", "RH040"]);
    let rh001 = &d[0];
    // examples/payouts.yaml:50:11, the kind `powertools-idempotency`
    // (whose default retention of 1h, F040, is the window).
    assert_eq!(
        rh001.range,
        Range::new(Position::new(49, 10), Position::new(49, 32))
    );
    assert_eq!(rh001.severity, Some(DiagnosticSeverity::ERROR));
    assert!(
        rh001
            .message
            .starts_with("a dead-letter redrive can reach `bank-rail` 15h 25m after the intent"),
        "{}",
        rh001.message
    );
    assert!(
        rh001
            .message
            .ends_with("help: set `payout-idempotency.retention` to at least 16h 57m 30s (the latest copy 15h 25m after its first sighting + margin 1h 32m 30s)"),
        "{}",
        rh001.message
    );
    // The worst path's links, each at its line with what it adds
    // (45m + 14h + 40m = 15h 25m).
    let related: Vec<(u32, String)> = rh001
        .related_information
        .iter()
        .flatten()
        .map(|r| {
            assert_eq!(r.location.uri, uri);
            let head: Vec<&str> = r.message.splitn(3, ": ").take(2).collect();
            (r.location.range.start.line + 1, head.join(": "))
        })
        .collect();
    let expected = [
        (24, "+0s settlement-scheduler → payout-requests: sends_to"),
        (31, "+45m payout-requests → payout-dlq: dead_letter"),
        (36, "+14h payout-dlq → payout-requests: redrive"),
        (30, "+40m payout-requests → payout-worker: delivers_to"),
        (47, "+0s payout-worker → bank-rail: effects"),
    ];
    assert_eq!(related, expected.map(|(l, m)| (l, m.to_string())).to_vec());
    assert_eq!(
        rh001.code_description.as_ref().unwrap().href.as_str(),
        "https://github.com/replay-audit/replay-audit/blob/main/docs/rules/RH001.md"
    );
    c.stop();
}

#[test]
fn hover_shows_the_kind_defaults_and_the_horizon_arithmetic() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = example(dir.path());
    let uri = uri_of(&path).unwrap();
    let mut c = Client::start();
    open(&c, &uri, &text);
    c.diagnostics(&uri);
    // Line 42: `      store: payout-idempotency`.
    let h = c.request(
        HoverRequest::METHOD,
        json!({ "textDocument": { "uri": uri }, "position": { "line": 41, "character": 20 } }),
    );
    let value = h["contents"]["value"].as_str().unwrap();
    // The kind's default retention 1h is F040; the horizon is the worst
    // path 45m + 14h + 40m = 15h 25m; with the default margin
    // (10% of 15h 25m = 1h 32m 30s) the window must be 16h 57m 30s.
    assert!(
        value.contains("| `retention` | 1h | - | - | F040 |"),
        "{value}"
    );
    assert!(
        value.contains(
            "**seller-payout** (store): horizon 15h 25m, window 1h: expires too soon, minimum safe window 16h 57m 30s"
        ),
        "{value}"
    );
    assert!(
        value.contains("`horizon 15h 25m = 45m dead_letter + 14h redrive + 40m delivers_to`"),
        "{value}"
    );
    // On a kind: its documented values only.
    let h = c.request(
        HoverRequest::METHOD,
        json!({ "textDocument": { "uri": uri }, "position": { "line": 49, "character": 14 } }),
    );
    let value = h["contents"]["value"].as_str().unwrap();
    assert!(
        value.starts_with("`powertools-idempotency` (store, aws): "),
        "{value}"
    );
    assert!(!value.contains("horizon"), "{value}");
    // On a key: nothing.
    let h = c.request(
        HoverRequest::METHOD,
        json!({ "textDocument": { "uri": uri }, "position": { "line": 41, "character": 8 } }),
    );
    assert_eq!(h, Value::Null);
    c.stop();
}

#[test]
fn definition_goes_from_an_id_to_where_it_is_defined() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = example(dir.path());
    let uri = uri_of(&path).unwrap();
    let mut c = Client::start();
    open(&c, &uri, &text);
    c.diagnostics(&uri);
    let at = |c: &mut Client, line: u32, character: u32| {
        c.request(
            GotoDefinition::METHOD,
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }),
        )
    };
    // `store: payout-idempotency` (line 42) → `  payout-idempotency:` (line 49).
    let d = at(&mut c, 41, 20);
    assert_eq!(d["uri"], json!(uri));
    assert_eq!(d["range"]["start"], json!({ "line": 48, "character": 2 }));
    // `dead_letter: { to: payout-dlq, ... }` (line 31) → line 33.
    assert_eq!(at(&mut c, 30, 24)["range"]["start"]["line"], json!(32));
    // `origin: settlement-scheduler` (line 13) → line 22.
    assert_eq!(at(&mut c, 12, 15)["range"]["start"]["line"], json!(21));
    // A word that names nothing.
    assert_eq!(at(&mut c, 41, 8), Value::Null);
    c.stop();
}

#[test]
fn the_quick_fix_removes_rh001_on_the_next_change() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = example(dir.path());
    let uri = uri_of(&path).unwrap();
    let mut c = Client::start();
    open(&c, &uri, &text);
    let d = c.diagnostics(&uri);
    let actions = c.request(
        CodeActionRequest::METHOD,
        json!({
            "textDocument": { "uri": uri },
            "range": d[0].range,
            "context": { "diagnostics": [d[0]] },
        }),
    );
    let actions: Vec<CodeAction> = serde_json::from_value(actions).unwrap();
    assert_eq!(actions.len(), 1);
    let a = &actions[0];
    assert_eq!(
        a.title,
        "set `payout-idempotency.retention` to 16h 57m 30s (RH001)"
    );
    assert_eq!(a.kind, Some(CodeActionKind::QUICKFIX));
    let edits = &a.edit.as_ref().unwrap().changes.as_ref().unwrap()[&uri];
    // The line `check --fix` writes, under the component's `kind:`.
    assert_eq!(edits.len(), 1);
    assert_eq!(
        edits[0].range,
        Range::new(Position::new(50, 0), Position::new(50, 0))
    );
    assert_eq!(edits[0].new_text, "    retention: 16h 57m 30s\n");
    let fixed = apply(&text, &edits[0]);
    // The same text `check --fix` writes.
    let other = tempfile::tempdir().unwrap();
    let (copy, _) = example(other.path());
    assert_cmd::Command::cargo_bin("replay-audit")
        .unwrap()
        .args(["check", "--fix"])
        .arg(&copy)
        .assert()
        .code(0);
    assert_eq!(fixed, std::fs::read_to_string(&copy).unwrap());
    c.notify(
        DidChangeTextDocument::METHOD,
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": fixed }],
        }),
    );
    assert_eq!(codes(&c.diagnostics(&uri)), ["RH005", "RH040"]);
    c.stop();
}

/// `text` with `edit` applied (an insertion or a replacement on one line).
fn apply(text: &str, edit: &TextEdit) -> String {
    let offset = |p: Position| {
        let start: usize = text
            .split_inclusive('\n')
            .take(p.line as usize)
            .map(str::len)
            .sum();
        start + p.character as usize
    };
    let (a, b) = (offset(edit.range.start), offset(edit.range.end));
    format!("{}{}{}", &text[..a], edit.new_text, &text[b..])
}

#[test]
fn input_errors_are_diagnostics_at_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.yaml");
    let uri = uri_of(&path).unwrap();
    let c = Client::start();
    // An unknown kind on line 5.
    let text = "version: 1\nintents: {}\ncomponents:\n  a:\n    kind: sqs-standrd\n";
    open(&c, &uri, text);
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].severity, Some(DiagnosticSeverity::ERROR));
    assert_eq!(d[0].range.start, Position::new(4, 10));
    assert!(d[0].message.contains("sqs-standrd"), "{}", d[0].message);
    // A YAML syntax error: an unclosed flow mapping on line 4.
    c.notify(
        DidChangeTextDocument::METHOD,
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": "version: 1\ncomponents:\n  a:\n    dead_letter: { to: b\n" }],
        }),
    );
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].severity, Some(DiagnosticSeverity::ERROR));
    assert!(d[0].range.start.line >= 3, "{d:?}");
    c.stop();
}

#[test]
fn a_template_is_checked_with_the_overlay_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let copy = |name: &str| {
        let text = std::fs::read_to_string(format!("fixtures/import/{name}")).unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, &text).unwrap();
        (uri_of(&path).unwrap(), text)
    };
    let (template, template_text) = copy("sqs-dlq-lambda.yaml");
    let (overlay, overlay_text) = copy("sqs-dlq-lambda.overlay.yaml");
    let mut c = Client::start();
    open(&c, &template, &template_text);
    // As `check sqs-dlq-lambda.yaml sqs-dlq-lambda.overlay.yaml`: the
    // template's findings at its resources, the overlay's at its lines.
    let d = c.diagnostics(&template);
    assert_eq!(codes(&d), ["RH015", "RH032"]);
    assert_eq!(d[0].range.start, Position::new(20, 0));
    let d = c.diagnostics(&overlay);
    assert_eq!(codes(&d), ["RH001", "RH005", "RH040"]);
    assert_eq!(d[0].range.start, Position::new(16, 15));
    // From the overlay, `store: idempotency-table` (line 20) goes to the
    // template's resource: the line its `Type` is on (37), from its start
    // (an imported place has a line only).
    open(&c, &overlay, &overlay_text);
    c.diagnostics(&overlay);
    let def = c.request(
        GotoDefinition::METHOD,
        json!({ "textDocument": { "uri": overlay }, "position": { "line": 19, "character": 16 } }),
    );
    assert_eq!(def["uri"], json!(template));
    assert_eq!(def["range"]["start"], json!({ "line": 36, "character": 0 }));
    c.stop();
}

#[test]
fn the_policy_beside_the_manifest_applies() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = example(dir.path());
    std::fs::write(
        dir.path().join("replay-audit.toml"),
        "[severity]\nRH005 = \"off\"\nRH040 = \"warning\"\n",
    )
    .unwrap();
    let uri = uri_of(&path).unwrap();
    let c = Client::start();
    open(&c, &uri, &text);
    let d = c.diagnostics(&uri);
    assert_eq!(codes(&d), ["RH001", "RH040"]);
    assert_eq!(d[1].severity, Some(DiagnosticSeverity::WARNING));
    c.stop();
}

#[test]
fn other_yaml_gets_no_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ci.yaml");
    let uri = uri_of(&path).unwrap();
    let c = Client::start();
    open(
        &c,
        &uri,
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
    );
    assert_eq!(c.diagnostics(&uri), []);
    c.stop();
}

#[test]
fn completion_offers_fields_and_values_from_the_vocabulary() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = example(dir.path());
    let uri = uri_of(&path).unwrap();
    let mut c = Client::start();
    open(&c, &uri, &text);
    c.diagnostics(&uri);
    let labels = |v: Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    // Line 43 `      claim: conditional-write`, after `claim: `: the choices.
    let claims = labels(c.request(
        lsp_types::request::Completion::METHOD,
        json!({ "textDocument": { "uri": uri }, "position": { "line": 42, "character": 13 } }),
    ));
    assert!(
        claims.contains(&"conditional-write".to_string()),
        "{claims:?}"
    );
    // Line 42 `      store: payout-idempotency`: the ids the file defines.
    let ids = labels(c.request(
        lsp_types::request::Completion::METHOD,
        json!({ "textDocument": { "uri": uri }, "position": { "line": 41, "character": 13 } }),
    ));
    assert_eq!(
        ids,
        [
            "bank-rail",
            "payout-dlq",
            "payout-idempotency",
            "payout-requests",
            "payout-worker",
            "seller-payout",
            "settlement-scheduler"
        ]
    );
    c.stop();
}

#[test]
fn an_open_text_is_bounded_like_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.yaml");
    let uri = uri_of(&path).unwrap();
    let (server, conn) = Connection::memory();
    let handle = std::thread::spawn(move || {
        let limits = replay_audit::manifest::Limits {
            max_file_bytes: 100,
            ..replay_audit::manifest::Limits::default()
        };
        replay_audit::lsp::serve(&server, limits).expect("serves");
    });
    let mut c = Client {
        conn,
        server: Some(handle),
        next: 0,
    };
    c.request(Initialize::METHOD, json!({ "capabilities": {} }));
    c.notify(Initialized::METHOD, json!({}));
    let text = format!("version: 1\ncomponents:\n{}", "  # padding\n".repeat(20));
    open(&c, &uri, &text);
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1);
    assert_eq!(
        d[0].message,
        format!(
            "{} is larger than 100 bytes\nhelp: raise --max-file-size in the editor's command for `replay-audit lsp`",
            path.display()
        )
    );
    c.stop();
}

#[test]
fn a_policy_error_is_shown_at_the_top_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let (path, text) = example(dir.path());
    let policy = dir.path().join("replay-audit.toml");
    std::fs::write(&policy, "fail_on = \"sometimes\"\n").unwrap();
    let uri = uri_of(&path).unwrap();
    let c = Client::start();
    open(&c, &uri, &text);
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].range.start, Position::new(0, 0));
    let place = format!("{}:1:", policy.display());
    assert!(d[0].message.starts_with(&place), "{}", d[0].message);
    assert!(d[0].message.contains("sometimes"), "{}", d[0].message);
    c.stop();
}
