//! Reading changes: `--set TARGET=VALUE` (and the shell's `set`),
//! `--unset TARGET`, and overrides files of `TARGET: VALUE` lines. Each is
//! kept as a source of its own so that errors point into it.

use std::path::Path;

use super::{Override, Session};
use crate::diagnostics::{Diagnostic, Loc};
use crate::manifest::LoadError;
use crate::manifest::load;
use crate::manifest::yaml::{self, Node, Value};

impl Session {
    /// Reads `TARGET=VALUE`; `origin` names where it was written (`--set`).
    /// The value is YAML (a scalar or a flow list/mapping); `~` or `null`
    /// removes the field.
    pub fn parse_set(&mut self, origin: &str, arg: &str) -> Result<Override, LoadError> {
        let arg = arg.trim();
        let file = self.add_source(origin, arg);
        let Some((sep, after)) = separator(arg) else {
            return Err(self.error(
                Diagnostic::at(
                    Loc {
                        file,
                        line: 1,
                        col: 1,
                    },
                    format!("`{arg}` is not TARGET=VALUE"),
                )
                .label("no value")
                .help(
                    "write e.g. `payout-idempotency.retention=2d` (or `set payout-idempotency.retention 2d`); `unset TARGET` removes a field",
                ),
            ));
        };
        let target = arg[..sep].trim_end().to_string();
        let shift = arg[..after].chars().count() as u32;
        let text = &arg[after..];
        let mut value = match yaml::parse(text, file, &self.limits) {
            Ok(v) => v,
            Err(mut d) => {
                if let Some(l) = &mut d.loc
                    && l.line == 1
                {
                    l.col += shift;
                }
                return Err(self.error(d));
            }
        };
        shift_cols(&mut value, shift);
        if text.trim().is_empty() {
            return Err(self.error(
                Diagnostic::at(
                    Loc {
                        file,
                        line: 1,
                        col: shift,
                    },
                    format!("`{target}` has no value"),
                )
                .help("give a value, e.g. `2d`; `unset TARGET` (or `~`) removes a field"),
            ));
        }
        let value = (value.value != Value::Null).then_some(value);
        Ok(Override {
            target,
            loc: Loc {
                file,
                line: 1,
                col: 1,
            },
            value,
        })
    }

    /// `--unset TARGET`.
    pub fn parse_unset(&mut self, origin: &str, target: &str) -> Override {
        let target = target.trim();
        let file = self.add_source(origin, target);
        Override {
            target: target.to_string(),
            loc: Loc {
                file,
                line: 1,
                col: 1,
            },
            value: None,
        }
    }

    /// An overrides file: a mapping `TARGET: VALUE` (`null` removes the field),
    /// as `save` writes it.
    pub fn read_overrides(&mut self, path: &Path) -> Result<Vec<Override>, LoadError> {
        let name = path.display().to_string();
        // Its own help, not the one below for a file that is no overrides file.
        crate::files::check_given(path).map_err(|d| self.error(d))?;
        let text = load::read_text(path, &self.limits).map_err(|d| {
            self.error(
                d.help("give a YAML file of `TARGET: VALUE` lines, as the shell's `save` writes"),
            )
        })?;
        // Errors show one line of the file at most, cut short
        // (crate::files::excerpt): it may be any text named by mistake.
        let file = self.add_source(&name, &crate::files::excerpt(&text));
        let node = yaml::parse(&text, file, &self.limits).map_err(|d| self.error(d))?;
        let entries = match node.value {
            Value::Map(e) => e,
            Value::Null => Vec::new(),
            other => {
                return Err(self.error(
                    Diagnostic::at(node.loc, format!("the overrides file must be a mapping, found {}", other.type_name()))
                        .help("write one `TARGET: VALUE` per line, e.g. `payout-idempotency.retention: 2d`"),
                ));
            }
        };
        let mut out = Vec::new();
        for (k, v) in entries {
            let Some(target) = k.value.scalar_text() else {
                return Err(self.error(Diagnostic::at(
                    k.loc,
                    "a target must be written as text: `ID.FIELD`",
                )));
            };
            out.push(Override {
                target,
                loc: k.loc,
                value: (v.value != Value::Null).then_some(v),
            });
        }
        Ok(out)
    }
}

/// Where `TARGET=VALUE` or `TARGET VALUE` splits: the separator's byte
/// offset and where the value starts. `=` wins unless text other than
/// spaces stands between the first space and it (`a.b {x: 1=2}`).
fn separator(arg: &str) -> Option<(usize, usize)> {
    let eq = arg.find('=');
    let ws = arg.find(char::is_whitespace);
    match (eq, ws) {
        (Some(e), Some(w)) if w < e && !arg[w..e].trim().is_empty() => Some((w, w + 1)),
        (Some(e), _) => Some((e, e + 1)),
        (None, Some(w)) => Some((w, w + 1)),
        (None, None) => None,
    }
}

/// A `--set` of the command line without `=`: clap took the value after
/// the space for a manifest path. The message and help of the shell's
/// error, naming that path when one of `paths` does not exist.
pub fn set_without_value(set: &[String], paths: &[std::path::PathBuf]) -> Option<(String, String)> {
    let s = set.iter().find(|s| separator(s.trim()).is_none())?;
    let missing = paths.iter().find(|p| !p.exists());
    let help = match missing {
        Some(p) => format!(
            "write `--set {s}={}`: after a space, `{}` was read as a manifest path",
            p.display(),
            p.display()
        ),
        None => format!("write `--set {s}=VALUE`, e.g. `--set payout-idempotency.retention=2d`"),
    };
    Some((format!("`--set {s}` is not TARGET=VALUE"), help))
}

/// Moves the columns of line 1 of `n` right by `shift` (the value of
/// `TARGET=VALUE` starts after the `=`).
fn shift_cols(n: &mut Node, shift: u32) {
    if n.loc.line == 1 {
        n.loc.col += shift;
    }
    match &mut n.value {
        Value::Seq(items) => items.iter_mut().for_each(|i| shift_cols(i, shift)),
        Value::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
            shift_cols(k, shift);
            shift_cols(v, shift);
        }),
        _ => {}
    }
}
