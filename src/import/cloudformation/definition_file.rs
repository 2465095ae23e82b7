//! A state machine definition kept in a local file beside the template:
//! SAM `DefinitionUri: statemachine/payout.asl.json`, or a
//! `DefinitionS3Location` path as `aws cloudformation package` takes it.
//!
//! The path is read relative to the template's folder, as the packaging
//! tools do. It is the template's text that names the file, not the user,
//! so the file is read like one the tool found: bounded, text only, never
//! through a symbolic link (neither the file nor a folder on the way), and
//! a path that leaves the template's folder (absolute, or `..` above it) is
//! refused. Each refusal is a `TODO:` note, not an error: the rest of the
//! template still imports.

use std::path::{Path, PathBuf};

use super::local_file::{Refused, link_words, resolve};

use super::intrinsics::Cf;
use super::{Node, Out, Value, relocate};

/// The definition at `n` (the value of `DefinitionUri` or
/// `DefinitionS3Location`, at `path`), parsed, with every place moved to
/// `n`'s line, and the file's name as the template gives it; or why it was
/// not read.
pub(super) fn read(cf: &Cf, out: &Out, n: &Node, path: &str) -> Result<(Node, String), String> {
    let at = out.src(path, n);
    let Some(text) = cf.lit(n).and_then(|v| match v.value {
        Value::Str(s) => Some(s),
        _ => None,
    }) else {
        return Err(format!(
            "TODO: the definition is in S3 ({at}): retries not imported"
        ));
    };
    if text.starts_with("s3://") || text.contains("://") {
        return Err(format!(
            "TODO: the definition is at `{text}`, not a local file ({at}): retries not imported"
        ));
    }
    let file = local(out.input(n.loc.file), &text)
        .map_err(|why| format!("TODO: the definition file `{text}` is not read: {why} ({at})"))?;
    let body = crate::files::read(&file, crate::files::Origin::Found, cf.limits.max_file_bytes)
        .map_err(|d| {
            format!(
                "TODO: the definition file is not read: {} ({at})",
                d.message
            )
        })?;
    let mut node = crate::import::tree::parse(&body, n.loc.file, cf.limits).map_err(|d| {
        format!(
            "TODO: the definition file `{text}` could not be parsed: {} ({at})",
            d.message
        )
    })?;
    relocate(&mut node, n.loc);
    Ok((node, text))
}

/// The file `rel` names relative to the folder of `template`, unless it
/// leaves that folder or passes through a symbolic link.
fn local(template: &str, rel: &str) -> Result<PathBuf, String> {
    let dir = Path::new(template).parent().unwrap_or(Path::new(""));
    resolve(dir, Vec::new(), rel).map_err(|r| match r {
        Refused::Leaves => "it leaves the template's folder".into(),
        Refused::Absolute => "an absolute path leaves the template's folder".into(),
        Refused::Empty => "it names no file".into(),
        Refused::Link(link) => link_words(&link),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_in_the_template_folder() {
        assert_eq!(
            local("t/template.yaml", "./sm/../sm/flow.json"),
            Ok(PathBuf::from("t/sm/flow.json"))
        );
        assert_eq!(
            local("template.yaml", "sm/../../x.json"),
            Err("it leaves the template's folder".to_string())
        );
        assert_eq!(
            local("template.yaml", "/etc/passwd"),
            Err("an absolute path leaves the template's folder".to_string())
        );
        assert_eq!(
            local("template.yaml", "sm/.."),
            Err("it names no file".to_string())
        );
    }
}
