#!/usr/bin/env python3
"""Writes one manifest of a fan-out shape for benches/fanout_growth.sh.

    python3 benches/fanout_gen.py (chain|hubs|topic) N > manifest.yaml

chain: one intent through N services, each calling the next, to a bank.
hubs:  N producers, four to a hub queue, each hub's worker paying its own
       bank; an intent per producer (fan-in of four, N/4 hubs).
topic: one API publishing to a topic with N subscriber queues, each
       delivering to its own worker (a guard with its own key table) and
       bank, with its own dead-letter queue; an intent per subscriber.
"""
import sys


def chain(n, out):
    out.append("intents:\n  pay: { origin: c0, effect: bank, key: { fields: [id] } }\n")
    out.append("components:\n")
    for i in range(n):
        to = f"c{i + 1}" if i + 1 < n else "bank"
        out.append(f"  c{i}: {{ kind: service, calls: [{{ to: {to}, timeout: 1s, passes_key: true }}] }}\n")
    out.append("  bank: { kind: external }\n")


def hubs(n, out):
    out.append("intents:\n")
    for k in range(n):
        out.append(f"  i{k}: {{ origin: s{k}, effect: bank{k // 4}, key: {{ fields: [id] }} }}\n")
    out.append("components:\n")
    for k in range(n):
        out.append(f"  s{k}: {{ kind: service, sends_to: hub{k // 4} }}\n")
    for h in range((n + 3) // 4):
        out.append(f"  hub{h}: {{ kind: sqs-standard, visibility_timeout: 1m, delivers_to: w{h} }}\n")
        out.append(f"  w{h}: {{ kind: function, timeout: 30s, effects: [bank{h}] }}\n")
        out.append(f"  bank{h}: {{ kind: external }}\n")


def topic(n, out):
    out.append("intents:\n")
    for k in range(n):
        out.append(f"  i{k}: {{ origin: api, effect: bank{k}, key: {{ fields: [id] }} }}\n")
    out.append("components:\n  api: { kind: service, sends_to: topic }\n")
    subs = ", ".join(f"q{k}" for k in range(n))
    out.append(f"  topic: {{ kind: sns-standard, delivers_to: [{subs}] }}\n")
    for k in range(n):
        out.append(
            f"  q{k}: {{ kind: sqs-standard, visibility_timeout: 1m, delivers_to: w{k}, "
            f"dead_letter: {{ to: dlq{k}, after_receives: 3 }} }}\n"
        )
        out.append(f"  dlq{k}: {{ kind: sqs-standard, retention: 14d }}\n")
        out.append(
            f"  w{k}: {{ kind: function, timeout: 30s, effects: [bank{k}], dedup: {{ store: keys{k}, "
            "claim: conditional-write, binds_fingerprint: true, stores_result: true } }\n"
        )
        out.append(f"  keys{k}: {{ kind: dynamodb-table, retention: 2d, expiry: application }}\n")
        out.append(f"  bank{k}: {{ kind: external }}\n")


def main():
    shapes = {"chain": chain, "hubs": hubs, "topic": topic}
    if len(sys.argv) != 3 or sys.argv[1] not in shapes or not sys.argv[2].isdigit():
        sys.exit("usage: fanout_gen.py (chain|hubs|topic) N")
    out = ["version: 1\n"]
    shapes[sys.argv[1]](int(sys.argv[2]), out)
    sys.stdout.write("".join(out))


main()
