//! `horizon`: for each guard, store and effect, the worst-case horizon, the
//! window that applies, the minimum safe retention and the arithmetic of the
//! worst path.

use serde::Serialize;

use crate::analysis::{Analysis, IntentResult, Step};
use crate::rules::required_window;
use crate::time::Dur;

#[derive(Debug, Clone, Serialize)]
pub struct JsonStep {
    pub from: String,
    pub to: String,
    pub adds_seconds: Option<u64>,
    pub why: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub intent: String,
    pub node: String,
    /// guard | store | effect | transport
    pub role: &'static str,
    pub horizon_seconds: Option<u64>,
    pub window_seconds: Option<u64>,
    pub required_retention_seconds: Option<u64>,
    pub path: Vec<String>,
    pub steps: Vec<JsonStep>,
    #[serde(skip)]
    pub horizon: Dur,
    #[serde(skip)]
    pub window: Option<Dur>,
}

impl Row {
    /// How the window compares with the horizon under the default margin.
    pub fn verdict(&self) -> &'static str {
        match self.window {
            None => "no window",
            Some(w) if w < self.horizon => "expires first",
            Some(w) if w < required_window(self.horizon) => "thin margin",
            Some(_) => "covered",
        }
    }
}

/// Rows for every intent (or one), optionally only at one component.
pub fn rows(a: &Analysis, intent: Option<&str>, at: Option<&str>) -> Vec<Row> {
    let m = a.manifest;
    let mut out = Vec::new();
    for r in &a.intents {
        let i = &m.intents[r.intent];
        if intent.is_some_and(|x| x != i.id) {
            continue;
        }
        let origin = i.origin.index().unwrap_or(0);
        let mut nodes: Vec<(usize, &'static str, usize, Option<Dur>)> = Vec::new();
        for &c in r.horizons.keys() {
            let node = &a.model.nodes[c];
            if let Some(g) = &node.guard {
                nodes.push((c, "guard", c, Some(g.layer.window.value)));
            }
            if node.generic.is_store()
                && a.model
                    .nodes
                    .iter()
                    .any(|n| n.guard.as_ref().is_some_and(|g| g.layer.component == c))
            {
                // The store's horizon is its guards' worst; show it with the guard's path.
                let guard = r
                    .horizons
                    .keys()
                    .copied()
                    .filter(|&g| {
                        a.model.nodes[g]
                            .guard
                            .as_ref()
                            .is_some_and(|gm| gm.layer.component == c)
                    })
                    .max_by_key(|g| r.horizons[g])
                    .unwrap_or(c);
                let w = a.model.nodes[guard]
                    .guard
                    .as_ref()
                    .map(|g| g.layer.window.value);
                nodes.push((c, "store", guard, w));
            }
            if let Some(t) = &node.transport_window {
                nodes.push((c, "transport", c, Some(t.window.value)));
            }
            if i.effects.iter().any(|e| e.value == m.components[c].id) {
                nodes.push((
                    c,
                    "effect",
                    c,
                    node.own_layer.as_ref().map(|l| l.window.value),
                ));
            }
        }
        for (c, role, via, window) in nodes {
            if at.is_some_and(|x| x != m.components[c].id) {
                continue;
            }
            let h = r.horizons.get(&c).copied().unwrap_or(Dur::ZERO);
            let steps = r.path_to(a, via);
            out.push(Row {
                intent: i.id.clone(),
                node: m.components[c].id.clone(),
                role,
                horizon_seconds: h.secs(),
                window_seconds: window.and_then(|w| w.secs()),
                required_retention_seconds: required_window(h).secs(),
                path: IntentResult::path_ids(m, origin, &steps),
                steps: json_steps(a, &steps),
                horizon: h,
                window,
            });
        }
    }
    out
}

fn json_steps(a: &Analysis, steps: &[Step]) -> Vec<JsonStep> {
    steps
        .iter()
        .map(|s| JsonStep {
            from: a.manifest.components[s.from].id.clone(),
            to: a.manifest.components[s.to].id.clone(),
            adds_seconds: s.adds.secs(),
            why: s.why.clone(),
        })
        .collect()
}

pub fn render_json(rows: &[Row]) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        version: u32,
        horizons: &'a [Row],
    }
    serde_json::to_string_pretty(&Out {
        version: 1,
        horizons: rows,
    })
    .expect("serialises")
        + "\n"
}

pub fn render_text(rows: &[Row]) -> String {
    let mut s = String::new();
    let mut current = None;
    for r in rows {
        if current != Some(&r.intent) {
            s.push_str(&format!("intent {}\n", r.intent));
            current = Some(&r.intent);
        }
        let window = r
            .window
            .map_or_else(|| "none".to_string(), |w| w.to_string());
        let verdict = match r.verdict() {
            "expires first" => "EXPIRES FIRST".to_string(),
            v => v.to_string(),
        };
        s.push_str(&format!(
            "  {} ({}): horizon {}, window {}, minimum safe retention {} — {}\n",
            r.node,
            r.role,
            r.horizon,
            window,
            required_window(r.horizon),
            verdict
        ));
        let mut total = Dur::ZERO;
        for st in &r.steps {
            let adds = st.adds_seconds.map_or(Dur::Unbounded, Dur::Secs);
            total = total.add(adds);
            s.push_str(&format!(
                "      {:>12}  {} → {}: {}\n",
                format!("+{adds}"),
                st.from,
                st.to,
                // The step's reason may quote a replay name: one line.
                crate::diagnostics::echo(&st.why)
            ));
        }
        s.push_str(&format!("      {:>12}  total\n", format!("= {total}")));
    }
    let mut s = crate::diagnostics::inert(&s);
    if rows.is_empty() {
        s.push_str("No guard, store or effect is reached.\n");
    }
    s
}
