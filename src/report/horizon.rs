//! `horizon`: for each guard, store and effect, the worst-case horizon, the
//! window that applies, the minimum safe retention and the arithmetic of the
//! worst path.

use std::collections::HashMap;
use std::io::Write;

use serde::Serialize;

use crate::analysis::{Analysis, IntentResult, Step};
use crate::rules::required_window;
use crate::time::Dur;

#[derive(Debug, Clone, Serialize)]
pub struct JsonStep {
    pub from: String,
    pub to: String,
    /// Rounded up to a whole second; `adds` keeps the milliseconds.
    pub adds_seconds: Option<u64>,
    pub why: String,
    #[serde(skip)]
    pub adds: Dur,
}

/// The steps left out of a long path: how many come before them, how many
/// there are and what they add together.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct JsonElided {
    pub after_step: usize,
    pub steps: usize,
    /// Rounded up to a whole second; `adds` keeps the milliseconds.
    pub adds_seconds: Option<u64>,
    #[serde(skip)]
    pub adds: Dur,
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub intent: String,
    pub node: String,
    /// guard | store | effect | transport
    pub role: &'static str,
    pub horizon_seconds: Option<u64>,
    /// For a dedup layer: the latest a copy it must recognise arrives after
    /// the layer's first sighting of the key (its window starts there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span_seconds: Option<Option<u64>>,
    pub window_seconds: Option<u64>,
    pub required_retention_seconds: Option<u64>,
    pub path: Vec<String>,
    pub steps: Vec<JsonStep>,
    /// Set when the path is too long to show whole: `steps` (and `path`)
    /// are its first and last steps, and this counts the ones between.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elided: Option<JsonElided>,
    #[serde(skip)]
    pub horizon: Dur,
    #[serde(skip)]
    pub window: Option<Dur>,
    #[serde(skip)]
    pub span: Option<Dur>,
    /// When the window starts counting, where the catalog says.
    #[serde(skip)]
    pub window_starts: Option<String>,
}

impl Row {
    /// What the window must cover: the span from the layer's first
    /// sighting to the latest copy it must recognise.
    pub fn needs(&self) -> Dur {
        self.span.unwrap_or(self.horizon)
    }

    /// How the window compares with what it must cover under the default
    /// margin.
    pub fn verdict(&self) -> &'static str {
        let need = self.needs();
        match self.window {
            None => "no window",
            Some(w) if w < need => TOO_SOON,
            Some(w) if w < required_window(need) => "thin margin",
            Some(_) => "covered",
        }
    }
}

/// The verdict of a window shorter than what it must cover.
pub const TOO_SOON: &str = "expires too soon";

/// Rows for every intent (or one), optionally only at one component.
pub fn rows(a: &Analysis, intent: Option<&str>, at: Option<&str>) -> Vec<Row> {
    let mut out = Vec::new();
    each_row(a, intent, at, &mut |r| {
        out.push(r);
        Ok(())
    })
    .expect("collecting rows does not fail");
    out
}

/// For each store, the guards that claim keys in it (ascending), so that a
/// store's rows do not search every node (quadratic on large manifests).
fn guards_by_store(a: &Analysis) -> HashMap<usize, Vec<usize>> {
    let mut by: HashMap<usize, Vec<usize>> = HashMap::new();
    for (g, n) in a.model.nodes.iter().enumerate() {
        if let Some(gm) = &n.guard {
            by.entry(gm.layer.component).or_default().push(g);
        }
    }
    by
}

/// Every row of every intent, with the path and steps only of the rows
/// whose role `paths` accepts (the others' are empty and `elided` unset):
/// for a reader of some paths only, since each path costs its length.
pub fn rows_with_paths(a: &Analysis, paths: &dyn Fn(&str) -> bool) -> Vec<Row> {
    let mut out = Vec::new();
    rows_where(a, None, None, paths, &mut |r| {
        out.push(r);
        Ok(())
    })
    .expect("collecting rows does not fail");
    out
}

/// The rows of [`rows`], one at a time as they are made, so that output
/// can be written without holding every row.
pub fn each_row(
    a: &Analysis,
    intent: Option<&str>,
    at: Option<&str>,
    emit: &mut dyn FnMut(Row) -> std::io::Result<()>,
) -> std::io::Result<()> {
    rows_where(a, intent, at, &|_| true, emit)
}

/// [`each_row`] with the paths of the roles `paths` accepts.
fn rows_where(
    a: &Analysis,
    intent: Option<&str>,
    at: Option<&str>,
    paths: &dyn Fn(&str) -> bool,
    emit: &mut dyn FnMut(Row) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let m = a.manifest;
    let guards = guards_by_store(a);
    for r in &a.intents {
        let i = &m.intents[r.intent];
        if intent.is_some_and(|x| x != i.id) {
            continue;
        }
        let origin = i.origin.index().unwrap_or(0);
        let mut index = None;
        for c in r.horizons.keys() {
            if at.is_some_and(|x| x != m.components[c].id) {
                continue;
            }
            for (role, via, window, span, layer) in roles(a, r, &guards, c) {
                let h = r.horizons.get(c).unwrap_or(Dur::ZERO);
                let (path, steps, elided) = if paths(role) {
                    let index = index.get_or_insert_with(|| r.path_index(a));
                    let view = index.view(via);
                    let elided = view.elided.map(|e| JsonElided {
                        after_step: e.after_step,
                        steps: e.steps,
                        adds_seconds: e.adds.as_secs_ceil(),
                        adds: e.adds,
                    });
                    let steps = json_steps(a, view.steps());
                    (index.view_ids(origin, &view), steps, elided)
                } else {
                    (Vec::new(), Vec::new(), None)
                };
                emit(Row {
                    intent: i.id.to_string(),
                    node: m.components[c].id.as_str().to_owned(),
                    role,
                    horizon_seconds: h.as_secs_ceil(),
                    span_seconds: span.map(Dur::as_secs_ceil),
                    window_seconds: window.and_then(|w| w.as_secs_ceil()),
                    required_retention_seconds: required_window(span.unwrap_or(h)).as_secs_ceil(),
                    path,
                    steps,
                    elided,
                    horizon: h,
                    window,
                    span,
                    window_starts: layer.and_then(|l| window_starts(m, l)),
                })?;
            }
        }
    }
    Ok(())
}

/// A role a component plays for an intent: its name, the component whose
/// worst path its row shows, the window that applies, the span that window
/// must cover and the component whose kind the window belongs to.
type Role = (&'static str, usize, Option<Dur>, Option<Dur>, Option<usize>);

/// The roles component `c` plays for intent `r`, each with the component
/// whose worst path the row shows, the window that applies and, for a
/// layer, the span its window must cover.
fn roles(
    a: &Analysis,
    r: &IntentResult,
    guards: &HashMap<usize, Vec<usize>>,
    c: usize,
) -> Vec<Role> {
    let m = a.manifest;
    let i = &m.intents[r.intent];
    let node = &a.model.nodes[c];
    // No copy to recognise reached the layer after its first sighting:
    // it needs to remember nothing.
    let span = |at: usize, layer: usize| {
        Some(
            r.layers
                .get(&(at, layer))
                .and_then(|l| l.reach)
                .unwrap_or(Dur::ZERO),
        )
    };
    let mut out = Vec::new();
    if let Some(g) = &node.guard {
        out.push((
            "guard",
            c,
            Some(g.layer.window.value),
            span(c, g.layer.component),
            Some(g.layer.component),
        ));
    }
    if node.generic.is_store()
        && let Some(gs) = guards.get(&c)
    {
        // The store's horizon is its guards' worst; show it with the guard's path.
        let guard = gs
            .iter()
            .copied()
            .filter(|&g| r.horizons.contains_key(g))
            .max_by_key(|&g| r.horizons.get(g))
            .unwrap_or(c);
        let w = a.model.nodes[guard]
            .guard
            .as_ref()
            .map(|g| g.layer.window.value);
        let worst = gs.iter().filter_map(|&g| span(g, c)).max();
        out.push(("store", guard, w, worst, Some(c)));
    }
    // A transport's window, where a send with a dedup id met it: a send
    // without one (`dedup_id: none`, no content-based dedup) is not
    // deduplicated, and a row would show a window that protects nothing.
    if let Some(t) = &node.transport_window
        && r.layers.get(&(c, c)).is_some_and(|l| l.layer.ty == t.ty)
    {
        out.push(("transport", c, Some(t.window.value), span(c, c), Some(c)));
    }
    // A workflow's execution names, where a start named by the key met them.
    if let Some(n) = &node.name_window
        && r.layers.get(&(c, c)).is_some_and(|l| l.layer.ty == n.ty)
    {
        out.push(("name", c, Some(n.window.value), span(c, c), Some(c)));
    }
    if i.effects.iter().any(|e| e.value == m.components[c].id) {
        let own = node.own_layer.as_ref();
        out.push((
            "effect",
            c,
            own.map(|l| l.window.value),
            own.and_then(|l| span(c, l.component)),
            own.map(|l| l.component),
        ));
    }
    out
}

/// When the window of component `c`'s kind starts counting, in words.
fn window_starts(m: &crate::manifest::model::Manifest, c: usize) -> Option<String> {
    let w = crate::analysis::effective::kind_of(&m.components[c])
        .window_starts
        .as_ref()?;
    Some(format!("{} ({})", w.text, w.source))
}

fn json_steps<'s>(a: &Analysis, steps: impl Iterator<Item = &'s Step>) -> Vec<JsonStep> {
    steps
        .map(|s| JsonStep {
            from: a.manifest.components[s.from].id.as_str().to_owned(),
            to: a.manifest.components[s.to].id.as_str().to_owned(),
            adds_seconds: s.adds.as_secs_ceil(),
            why: s.why.clone(),
            adds: s.adds,
        })
        .collect()
}

pub fn render_json(rows: &[Row]) -> String {
    let mut out = Vec::new();
    let mut w = JsonWriter::new(&mut out, "horizons").expect("writes to memory");
    for r in rows {
        w.row(r).expect("writes to memory");
    }
    w.finish().expect("writes to memory");
    String::from_utf8(out).expect("JSON is UTF-8")
}

pub fn render_text(rows: &[Row]) -> String {
    let mut out = Vec::new();
    let mut w = TextWriter::new(&mut out);
    for r in rows {
        w.row(r.clone()).expect("writes to memory");
    }
    w.finish().expect("writes to memory");
    String::from_utf8(out).expect("text is UTF-8")
}

/// `horizon --format json`, written row by row as the rows are made.
pub fn write_json(
    a: &Analysis,
    intent: Option<&str>,
    at: Option<&str>,
    w: &mut dyn Write,
) -> std::io::Result<()> {
    let mut jw = JsonWriter::new(w, "horizons")?;
    each_row(a, intent, at, &mut |r| jw.row(&r))?;
    jw.finish()
}

/// `horizon` as text, written row by row as the rows are made.
pub fn write_text(
    a: &Analysis,
    intent: Option<&str>,
    at: Option<&str>,
    w: &mut dyn Write,
) -> std::io::Result<()> {
    let mut tw = TextWriter::new(w);
    each_row(a, intent, at, &mut |r| tw.row(r))?;
    tw.finish()
}

/// Writes `{"version": 1, "horizons": [...]}` exactly as
/// `serde_json::to_string_pretty` of the whole would, one row at a time.
/// (`horizon --required` writes its `required` rows with it too).
pub struct JsonWriter<'w> {
    w: &'w mut dyn Write,
    rows: usize,
}

impl<'w> JsonWriter<'w> {
    /// Starts `{"version": 1, "<key>": [`.
    pub fn new(w: &'w mut dyn Write, key: &str) -> std::io::Result<Self> {
        write!(w, "{{\n  \"version\": 1,\n  \"{key}\": [")?;
        Ok(JsonWriter { w, rows: 0 })
    }

    pub fn row(&mut self, r: &impl Serialize) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(r).map_err(std::io::Error::other)?;
        self.w
            .write_all(if self.rows == 0 { b"\n" } else { b",\n" })?;
        // JSON strings hold no raw newline, so every line is indented as
        // the nested value it is.
        for (n, line) in text.lines().enumerate() {
            if n > 0 {
                self.w.write_all(b"\n")?;
            }
            self.w.write_all(b"    ")?;
            self.w.write_all(line.as_bytes())?;
        }
        self.rows += 1;
        Ok(())
    }

    pub fn finish(self) -> std::io::Result<()> {
        if self.rows > 0 {
            self.w.write_all(b"\n  ")?;
        }
        self.w.write_all(b"]\n}\n")
    }
}

/// Writes the text of `horizon`, one intent at a time: the layers whose
/// window is too short are all marked, and of those the ones with the
/// shortest window (the key they hold is forgotten first) as such.
struct TextWriter<'w> {
    w: &'w mut dyn Write,
    /// The rows of the intent being written.
    pending: Vec<Row>,
    rows: usize,
}

impl<'w> TextWriter<'w> {
    fn new(w: &'w mut dyn Write) -> Self {
        TextWriter {
            w,
            pending: Vec::new(),
            rows: 0,
        }
    }

    fn row(&mut self, r: Row) -> std::io::Result<()> {
        if self.pending.first().is_some_and(|p| p.intent != r.intent) {
            self.flush()?;
        }
        self.pending.push(r);
        self.rows += 1;
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let Some(first) = self.pending.first() else {
            return Ok(());
        };
        let mut s = format!("intent {}\n", first.intent);
        let shortest = self
            .pending
            .iter()
            .filter(|r| r.verdict() == TOO_SOON)
            .filter_map(|r| r.window)
            .min();
        for r in self.pending.drain(..) {
            row_text(&r, r.window.is_some() && r.window == shortest, &mut s);
        }
        self.w.write_all(crate::diagnostics::inert(&s).as_bytes())
    }

    fn finish(mut self) -> std::io::Result<()> {
        self.flush()?;
        if self.rows == 0 {
            self.w
                .write_all(b"No guard, store or effect is reached.\n")?;
        }
        Ok(())
    }
}

/// One row: its verdict line, its steps (the elided ones as one line with
/// their count and what they add) and the total. `first`: of the intent's
/// layers too short, this one forgets the key first.
fn row_text(r: &Row, first: bool, s: &mut String) {
    let window = r.window.map_or_else(
        || "none".to_string(),
        |w| match &r.window_starts {
            Some(from) => format!("{w} counted {from}"),
            None => w.to_string(),
        },
    );
    let verdict = match r.verdict() {
        TOO_SOON if first => "EXPIRES FIRST".to_string(),
        TOO_SOON => "EXPIRES TOO SOON".to_string(),
        v => v.to_string(),
    };
    // Both ends of what a layer's window must cover: its first sighting of
    // the key and the latest copy it must recognise.
    let span = r.span.map_or_else(String::new, |sp| {
        format!(", latest copy to stop {sp} after its first sighting")
    });
    s.push_str(&format!(
        "  {} ({}): horizon {}, window {}{span}, minimum safe retention {} — {}\n",
        r.node,
        r.role,
        r.horizon,
        window,
        required_window(r.needs()),
        verdict
    ));
    let mut total = Dur::ZERO;
    for (n, st) in r.steps.iter().enumerate() {
        if let Some(e) = r.elided.filter(|e| e.after_step == n) {
            let adds = e.adds;
            total = total.add(adds);
            s.push_str(&format!(
                "      {:>12}  … {} more steps\n",
                format!("+{adds}"),
                thousands(e.steps)
            ));
        }
        let adds = st.adds;
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

/// `4990` as `4,990`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
