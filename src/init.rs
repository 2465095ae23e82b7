//! `init`: a commented starter manifest.
//!
//! A small design that is sound on purpose: a service sends to a standard
//! queue with a declared backlog bound, a function claims the key in a
//! DynamoDB table that keeps it far longer than the latest copy can arrive,
//! the payment provider accepts the key, and a ledger's unique constraint
//! backs everything. `check` on it exits 0; its only finding is the RH005
//! note that the verdict rests on the declared `max_backlog` (tests hold
//! both).

/// The starter as `init -o PATH` writes it: its header names `PATH` in the
/// command to run (one inert line, quoted for a shell where needed).
pub fn starter_for(path: &str) -> String {
    STARTER.replacen(DEFAULT_PATH, &shell_word(path), 1)
}

/// `path` as one inert shell word: as it is when plain, else in single
/// quotes.
pub fn shell_word(path: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "._/-+@".contains(c);
    let shown = replay_audit::diagnostics::echo(path);
    if !shown.is_empty() && shown.chars().all(plain) {
        shown
    } else {
        crate::commands::sh_quoted(&shown)
    }
}

/// The path the printed starter's header suggests.
const DEFAULT_PATH: &str = "replay-audit/architecture.yaml";

/// The starter manifest, as `init` prints it.
pub const STARTER: &str = r#"# A starter replay-audit manifest: one business decision ("charge this
# order once") followed from where it is made to where money moves.
#
# Replace the ids, kinds and numbers with your own, then run
#   replay-audit check replay-audit/architecture.yaml
# Editors: `replay-audit schema > replay-audit.schema.json` and see
# docs/editors.md for the yaml-language-server line that uses it.
# The format is described in docs/manifest.md; `replay-audit catalog` lists the
# platform kinds and their documented defaults.
version: 1
name: orders

intents:
  # An intent is a decision the idempotency key names. Every copy of the
  # request for the same order must carry the same key.
  order-charge:
    description: charge the customer once for one order
    origin: checkout-api          # where the decision becomes stable
    effect: payment-provider      # where the business effect happens
    key:
      fields: [order_id]          # a natural key: the same order, the same key
      persisted_before_retry: true
    # The fields that make two requests "the same": a copy with the same key
    # but another amount is an error, not a duplicate.
    fingerprint: [order_id, amount, currency]
    # Failure injections the team has run (the review report lists the rest).
    tested: [timeout-before-effect, timeout-after-effect, lost-ack,
             concurrent-retry, expired-key, dlq-redrive, regional-failover]

components:
  checkout-api:
    kind: service
    sends_to: charge-requests

  # A standard queue delivers at least once: the worker sees copies.
  charge-requests:
    kind: sqs-standard
    visibility_timeout: 2m
    retention: 4d
    # An operational assumption: we alert and drain the queue within 2 hours.
    # replay-audit bounds the horizon with it and lists it in its output.
    # It bounds only messages that stop coming back: without a receive
    # limit a failing message is redelivered until the retention ends.
    max_backlog: 2h
    max_receives: 5
    delivers_to: charge-worker

  charge-worker:
    kind: function
    timeout: 60s
    # Claim the key before charging; a copy that finds the claim gets the
    # stored result instead of a second charge.
    dedup:
      store: charge-keys
      claim: conditional-write
      binds_fingerprint: true
      stores_result: true
      in_progress: { on_conflict: reject, expires_after: 5m, on_expiry: reconcile }
    effects:
      - { to: payment-provider, passes_key: true }
      - orders-ledger

  # The dedup store keeps each key far longer than the latest copy can come.
  charge-keys:
    kind: dynamodb-table
    retention: 7d
    expiry: application           # validity checked in code, not by TTL deletion

  # The provider deduplicates by our key too, for its own window.
  payment-provider:
    kind: external
    accepts_key: true
    key_window: 7d
    lookup_by_reference: true
    reconciliation: lookup

  # A ledger with a unique constraint on the business identifier: the last
  # line of defence, kept forever.
  orders-ledger:
    kind: ledger
    unique: [order_id]
    retention: unbounded
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starter_is_a_valid_manifest_with_no_failing_finding() {
        let m = replay_audit::manifest::from_str(STARTER)
            .unwrap_or_else(|e| panic!("{}", e.render(false)));
        let a = replay_audit::analysis::analyse(&m);
        let found: Vec<(String, &str)> = replay_audit::rules::run(&a)
            .iter()
            .map(|f| (f.fingerprint(), f.severity.name()))
            .collect();
        assert_eq!(found, vec![("RH005:order-charge:-".to_string(), "info")]);
    }

    #[test]
    fn the_starter_validates_against_the_schema() {
        let schema = replay_audit::schema::schema();
        let v = jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema");
        let starter: serde_json::Value = serde_saphyr::from_str(STARTER).expect("YAML");
        let errors: Vec<String> = v.iter_errors(&starter).map(|e| e.to_string()).collect();
        assert_eq!(errors, Vec::<String>::new());
    }
}
