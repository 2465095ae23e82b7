//! `replay-audit lsp`: a language server over standard input and output
//! (the `lsp-server` and `lsp-types` crates of rust-analyzer). The editor
//! sends whole texts (full sync); on every open and change the document's
//! architecture is read and checked by the engine `check` uses
//! ([`analyse`]) and its findings are published ([`diagnostics`]). Requests:
//! hover on an id or a kind ([`hover`]), go to definition ([`definition`]),
//! the certain fixes as quick fixes ([`code_action`]), field names and
//! values from the vocabulary table ([`completion`]).
//!
//! Requests are answered one at a time, in order, on this thread: each
//! re-reads the document's architecture (a few milliseconds for the
//! bundled examples, see docs/editors.md), so no answer is stale.

pub mod analyse;
pub mod code_action;
pub mod completion;
pub mod definition;
pub mod diagnostics;
pub mod hover;
pub mod position;

use std::path::PathBuf;

use lsp_server::{Connection, ExtractError, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, GotoDefinition, HoverRequest, Request as _,
};
use lsp_types::{
    CodeActionProviderCapability, HoverProviderCapability, OneOf, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};

use crate::manifest::Limits;
use analyse::Open;

/// Serves on standard input and output until the client says `exit`.
pub fn serve_stdio(limits: Limits) -> std::io::Result<()> {
    let (connection, io) = Connection::stdio();
    serve(&connection, limits)?;
    drop(connection);
    io.join()
}

/// A failure of the connection, as the I/O error it is.
fn broken(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

/// What the server offers.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        completion_provider: Some(lsp_types::CompletionOptions {
            trigger_characters: Some(vec![":".to_string(), " ".to_string()]),
            ..lsp_types::CompletionOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// The initialisation handshake, then every message until `shutdown`.
pub fn serve(connection: &Connection, limits: Limits) -> std::io::Result<()> {
    let caps = serde_json::to_value(capabilities())?;
    connection.initialize(caps).map_err(broken)?;
    let mut server = Server {
        open: Open::new(),
        limits,
    };
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => {
                if connection.handle_shutdown(&req).map_err(broken)? {
                    return Ok(());
                }
                let id = req.id.clone();
                let response = guarded(|| server.request(req)).unwrap_or_else(|| {
                    Response::new_err(
                        id,
                        lsp_server::ErrorCode::InternalError as i32,
                        "replay-audit failed on this request (a bug: please report it)".into(),
                    )
                });
                connection.sender.send(response.into()).map_err(broken)?;
            }
            Message::Notification(n) => {
                for out in guarded(|| server.notification(n)).unwrap_or_default() {
                    connection.sender.send(out.into()).map_err(broken)?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// `f`, or `None` if it panicked: a bug met on one request answers that
/// request with an error instead of ending the editor's session (the
/// panic's message still goes to standard error, the client's log).
fn guarded<T>(f: impl FnOnce() -> T) -> Option<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

/// The documents the editor holds open.
pub struct Server {
    pub open: Open,
    pub limits: Limits,
}

/// The local path of a document, or `None` for a URI that is no file.
fn path(uri: &Uri) -> Option<PathBuf> {
    position::path_of(uri)
}

impl Server {
    fn notification(&mut self, n: Notification) -> Vec<Notification> {
        let changed = match n.method.as_str() {
            DidOpenTextDocument::METHOD => n
                .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                .ok()
                .and_then(|p| Some((path(&p.text_document.uri)?, p.text_document.text))),
            DidChangeTextDocument::METHOD => n
                .extract::<lsp_types::DidChangeTextDocumentParams>(DidChangeTextDocument::METHOD)
                .ok()
                .and_then(|mut p| {
                    // Full sync: the last change holds the whole text.
                    let text = p.content_changes.pop()?.text;
                    Some((path(&p.text_document.uri)?, text))
                }),
            DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    n.extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                    && let Some(file) = path(&p.text_document.uri)
                {
                    self.open.remove(&file);
                    return vec![publish(lsp_types::PublishDiagnosticsParams {
                        uri: p.text_document.uri,
                        diagnostics: Vec::new(),
                        version: None,
                    })];
                }
                None
            }
            _ => None,
        };
        let Some((file, text)) = changed else {
            return Vec::new();
        };
        let ours = analyse::is_ours(&file, &text, &self.limits);
        self.open.insert(file.clone(), text);
        if !ours {
            return position::uri_of(&file)
                .map(|uri| {
                    publish(lsp_types::PublishDiagnosticsParams {
                        uri,
                        diagnostics: Vec::new(),
                        version: None,
                    })
                })
                .into_iter()
                .collect();
        }
        let snapshot = analyse::snapshot(&file, &self.open, &self.limits);
        diagnostics::publish(&snapshot)
            .into_iter()
            .map(publish)
            .collect()
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let answer = match req.method.as_str() {
            HoverRequest::METHOD => answer::<HoverRequest>(req, |p| hover::hover(self, p)),
            GotoDefinition::METHOD => {
                answer::<GotoDefinition>(req, |p| definition::definition(self, p))
            }
            Completion::METHOD => answer::<Completion>(req, |p| completion::completion(self, p)),
            CodeActionRequest::METHOD => {
                answer::<CodeActionRequest>(req, |p| code_action::code_actions(self, p))
            }
            _ => Err(Response::new_err(
                id.clone(),
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("unknown request {}", req.method),
            )),
        };
        answer.unwrap_or_else(|e| e)
    }
}

fn publish(p: lsp_types::PublishDiagnosticsParams) -> Notification {
    Notification::new(PublishDiagnostics::METHOD.to_string(), p)
}

/// The response to `req` of type `R`, its parameters read and answered by
/// `f`; parameters that do not read are an `InvalidParams` error.
fn answer<R: lsp_types::request::Request>(
    req: Request,
    f: impl FnOnce(R::Params) -> R::Result,
) -> Result<Response, Response> {
    let id = req.id.clone();
    match req.extract::<R::Params>(R::METHOD) {
        Ok((id, params)) => Ok(Response::new_ok(id, f(params))),
        Err(ExtractError::JsonError { error, .. }) => Err(Response::new_err(
            id,
            lsp_server::ErrorCode::InvalidParams as i32,
            error.to_string(),
        )),
        Err(ExtractError::MethodMismatch(r)) => Err(Response::new_err(
            r.id,
            lsp_server::ErrorCode::MethodNotFound as i32,
            r.method,
        )),
    }
}
