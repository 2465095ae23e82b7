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
    assert_eq!(
        rh001.code_description.as_ref().unwrap().href.as_str(),
        "https://github.com/replay-audit/replay-audit/blob/main/docs/rules/RH001.md"
    );
    c.stop();
}
