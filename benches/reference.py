#!/usr/bin/env python3
"""The Python reference of issue #21: what a team would script instead of
replay-audit, timed by benches/ratios.sh against `check --format json`.

    pip install 'PyYAML==6.0.3' 'networkx==3.6.1'   # PyYAML wheels bundle libyaml
    python3 benches/reference.py MANIFEST.yaml

It loads the manifest with PyYAML's C loader (CSafeLoader; it refuses to run
on the pure-Python loader, which would make the comparison unfair), builds
a networkx graph of the components and their links, and computes for every
intent the longest delay from its origin (and its replay entry points) to
every component it reaches, with redrive cycles unrolled `max_times`
rounds, strongly connected components taken once for the whole graph (as
the tool does). It then compares the age at each dedup guard with its
store's retention and at each effect with the provider's key window. No
rules, no message clock, no regions: its counts are a sanity check, not the
tool's findings.

Delays, per link (docs/analysis.md has the tool's full table):
- sends_to, calls: the retry span, attempts x timeout + the backoffs
  between them (doubling from `backoff`, capped at `max_backoff`);
- delivers_to, dead_letter out of a queue: its retention (SQS default 4d,
  F003), or max_backlog + (after_receives - 1) x visibility_timeout (SQS
  default 30s, F002) when that is smaller;
- delivers_to out of a topic or bus: its max_backlog, else its retention;
- redrive: `within`, else the dead-letter queue's retention;
- effects: none.
Key windows: Stripe 24h (F067), Adyen 31d (F068), else `key_window`.

Prints one line: intents, windows compared, windows shorter than the age.
"""

import sys
from collections import defaultdict

import networkx as nx
import yaml

INF = float("inf")
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
QUEUE_DEFAULT_RETENTION = {"sqs-standard": 4 * 86400, "sqs-fifo": 4 * 86400}  # F003
KEY_WINDOW_DEFAULT = {"stripe": 24 * 3600, "adyen": 31 * 86400}  # F067, F068
TOPICS = ("sns-standard", "sns-fifo", "eventbridge")


def dur(v):
    """Seconds of "30s", "5m", "2h", "14d", a number, or "unbounded"."""
    if v is None:
        return None
    if isinstance(v, (int, float)):
        return v
    v = str(v).strip()
    if v in ("unbounded", "forever"):
        return INF
    return int(v[:-1]) * UNITS[v[-1]]


def targets(value):
    """(target, link mapping) of a link field: an id, a mapping, or a list."""
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    return [(x, {}) if isinstance(x, str) else (x["to"], x) for x in items]


def retry_span(link):
    r = link.get("retry")
    if not r:
        return 0
    attempts = int(r.get("attempts", 1))
    span = attempts * (dur(r.get("timeout")) or 0)
    backoff, cap = dur(r.get("backoff")) or 0, dur(r.get("max_backoff")) or INF
    for i in range(attempts - 1):
        span += min(backoff * 2**i, cap)
    return span


def delivery_span(c):
    """How long a queue or topic may still deliver a message."""
    kind = c.get("kind", "")
    retention = dur(c.get("retention")) or QUEUE_DEFAULT_RETENTION.get(kind, 0)
    if kind in TOPICS:
        return dur(c.get("max_backlog")) or retention
    dl = c.get("dead_letter")
    receives = dl.get("after_receives") if isinstance(dl, dict) else None
    backlog = dur(c.get("max_backlog"))
    if backlog is not None and receives:
        visibility = dur(c.get("visibility_timeout")) or 30  # F002
        return min(retention, backlog + (int(receives) - 1) * visibility)
    return retention


def build(components):
    """The networkx graph and, per component, its links as (target, kind, delay, max_times)."""
    g = nx.DiGraph()
    g.add_nodes_from(components)
    out = defaultdict(list)
    for cid, c in components.items():
        for field in ("sends_to", "calls"):
            for to, link in targets(c.get(field)):
                out[cid].append((to, field, retry_span(link), None))
        for to, _ in targets(c.get("delivers_to")):
            out[cid].append((to, "delivers_to", delivery_span(c), None))
        for to, _ in targets(c.get("dead_letter")):
            out[cid].append((to, "dead_letter", delivery_span(c), None))
        for to, link in targets(c.get("redrive")):
            within = dur(link.get("within")) or dur(c.get("retention")) or 0
            out[cid].append((to, "redrive", within, link.get("max_times")))
        for to, _ in targets(c.get("effects")):
            out[cid].append((to, "effects", 0, None))
        for to, _, _, _ in out[cid]:
            g.add_edge(cid, to)
    return g, out


class Scc:
    """One strongly connected component: its members in the order of their
    links that are not redrives, and how many redrive rounds it unrolls."""

    def __init__(self, members, out):
        inner = nx.DiGraph()
        inner.add_nodes_from(members)
        self.rounds = 0
        for n in members:
            for to, kind, _, times in out[n]:
                if to not in members:
                    continue
                if kind == "redrive":
                    self.rounds = INF if times is None or self.rounds == INF else self.rounds + int(times)
                else:
                    inner.add_edge(n, to)
        if len(members) > 1 and not nx.is_directed_acyclic_graph(inner):
            self.rounds = INF  # a loop no redrive bounds
        self.order = list(nx.topological_sort(inner)) if self.rounds != INF else list(members)


def ages(origin_entries, cond, topo, sccs, out):
    """The longest age at every component reached from the entries."""
    start = {cond.graph["mapping"][n] for n, _ in origin_entries}
    reached = set(start)
    stack = list(start)
    while stack:
        for s in cond.successors(stack.pop()):
            if s not in reached:
                reached.add(s)
                stack.append(s)
    entry = defaultdict(lambda: -1)
    for n, age in origin_entries:
        entry[n] = max(entry[n], age)
    best = {}
    for s in sorted(reached, key=topo.__getitem__):
        scc = sccs[s]
        members = cond.nodes[s]["members"]
        rounds = 0 if scc.rounds == INF else scc.rounds
        age = {(n, 0): entry[n] for n in members if entry[n] >= 0}
        for r in range(rounds + 1):
            for n in scc.order:
                a = age.get((n, r))
                if a is None:
                    continue
                best[n] = INF if scc.rounds == INF else max(best.get(n, -1), a)
                for to, kind, delay, _ in out[n]:
                    arrive = a + delay
                    if to not in members:
                        entry[to] = max(entry[to], INF if scc.rounds == INF else arrive)
                    elif kind != "redrive":
                        age[(to, r)] = max(age.get((to, r), -1), arrive)
                    elif r < rounds:
                        age[(to, r + 1)] = max(age.get((to, r + 1), -1), arrive)
    return best


def main(path):
    if not getattr(yaml, "__with_libyaml__", False):
        sys.exit("PyYAML was built without libyaml: pip install --force-reinstall PyYAML")
    with open(path, encoding="utf-8") as f:
        doc = yaml.load(f, Loader=yaml.CSafeLoader)
    components = doc.get("components") or {}
    g, out = build(components)
    cond = nx.condensation(g)
    topo = {s: i for i, s in enumerate(nx.topological_sort(cond))}
    sccs = {s: Scc(cond.nodes[s]["members"], out) for s in cond.nodes}
    compared = short = 0
    for intent in (doc.get("intents") or {}).values():
        entries = [(intent["origin"], 0)]
        for r in intent.get("replays") or []:
            entries.append((r["enters_at"], dur(r.get("within")) or 0))
        best = ages(entries, cond, topo, sccs, out)
        effects = {to for to, _ in targets(intent.get("effect"))}
        for n, age in best.items():
            c = components[n]
            dedup = c.get("dedup")
            if isinstance(dedup, dict) and dedup.get("store") in components:
                window = dur(components[dedup["store"]].get("retention")) or 0
            elif n in effects and c.get("accepts_key", True):
                window = dur(c.get("key_window")) or KEY_WINDOW_DEFAULT.get(c.get("kind"), 0)
            else:
                continue
            compared += 1
            short += age > window
    print(f"{len(doc.get('intents') or {})} intents, {compared} windows compared, {short} shorter than the age")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: reference.py MANIFEST.yaml")
    main(sys.argv[1])
