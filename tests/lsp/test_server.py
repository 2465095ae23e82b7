"""The language server through a real LSP client (pytest-lsp): open the
bundled example, receive RH001 at its line, hover, apply the quick fix,
receive no RH001. Run by .ci/run after `cargo test` built the binary."""

import os
import pathlib
import shutil

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
BINARY = os.environ.get("REPLAY_AUDIT_BIN") or str(TARGET / "debug" / "replay-audit")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BINARY, "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities())
    )
    yield
    await lsp_client.shutdown_session()


def apply(text: str, edit: types.TextEdit) -> str:
    """`text` with one edit applied (positions on ASCII lines)."""
    lines = text.splitlines(keepends=True)

    def offset(p: types.Position) -> int:
        return sum(len(line) for line in lines[: p.line]) + p.character

    start, end = offset(edit.range.start), offset(edit.range.end)
    return text[:start] + edit.new_text + text[end:]


async def diagnostics(client: LanguageClient, uri: str):
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics[uri]


@pytest.mark.asyncio
async def test_open_hover_fix(client: LanguageClient, tmp_path: pathlib.Path):
    path = tmp_path / "payouts.yaml"
    shutil.copy(ROOT / "examples" / "payouts.yaml", path)
    text = path.read_text()
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="yaml", version=1, text=text
            )
        )
    )
    found = await diagnostics(client, uri)
    assert [d.code for d in found] == ["RH001", "RH005", "RH040"]
    # examples/payouts.yaml:50:11, the kind whose default retention (1h, F040)
    # is the window.
    rh001 = found[0]
    assert rh001.range.start == types.Position(line=49, character=10)
    assert rh001.severity == types.DiagnosticSeverity.Error

    # Hover on `store: payout-idempotency` (line 42).
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=41, character=20),
        )
    )
    assert "`horizon 15h 25m = 45m dead_letter + 14h redrive + 40m delivers_to`" in (
        hover.contents.value
    )

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=rh001.range,
            context=types.CodeActionContext(diagnostics=[rh001]),
        )
    )
    assert [a.title for a in actions] == [
        "set `payout-idempotency.retention` to 16h 57m 30s (RH001)",
        "allow RH001 here (an inline allowance; write its reason)",
    ]
    (edit,) = actions[0].edit.changes[uri]
    fixed = apply(text, edit)
    assert "    kind: powertools-idempotency\n    retention: 16h 57m 30s\n" in fixed

    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    found = await diagnostics(client, uri)
    assert [d.code for d in found] == ["RH005", "RH040"]
