//! `import FORMAT PATHS`: the inputs read as every command reads them
//! (discovered, grouped and imported by [`super::texts_of`]), each of them
//! required to be of the format asked for, and the one skeleton they make.

use std::path::{Path, PathBuf};

use super::{Error, Input, Inputs, Text, read_raw, texts_of};
use crate::diagnostics::{a, echo};
use crate::import::{self, Format};

/// The word of `import` that reads `format`.
pub fn import_word(format: Format) -> &'static str {
    match format {
        Format::CloudFormation => "cloudformation",
        Format::Terraform | Format::TerraformHcl => "terraform",
        Format::AsyncApi => "asyncapi",
        Format::AwsExport => "aws-export",
    }
}

/// Whether an input read as `found` is what `import want` reads.
fn is(found: Format, want: Format) -> bool {
    found == want
        || matches!(
            (found, want),
            (Format::TerraformHcl, Format::Terraform) | (Format::Terraform, Format::TerraformHcl)
        )
}

/// The error for input `name`, which is `found` and not `want`.
fn not_of(name: &str, found: Format, want: Format, several: bool) -> Error {
    let message = echo(&format!(
        "`{name}` is {}, not {}",
        a(found.name()),
        a(want.name())
    ));
    let help = if several {
        format!(
            "give only {} to `import {}`",
            want.plural(),
            import_word(want)
        )
    } else {
        echo(&format!(
            "run `replay-audit import {} {name}`",
            import_word(found)
        ))
    };
    Error::usage(message, help)
}

/// The skeleton of `inputs` (its `paths` are the files `import` was given,
/// `.tfvars` files among them), read as `format`.
pub fn import(inputs: &Inputs, format: Format) -> Result<Text, Error> {
    refuse_shapes(&inputs.paths, format)?;
    if format == Format::AwsExport {
        return aws_export(inputs);
    }
    let (mut raw, skipped, errors) = read_raw(inputs)?;
    if format == Format::Terraform {
        // A module folder is its own files: its sub-folders are other
        // modules, read when it calls them.
        let dirs: Vec<&PathBuf> = inputs.paths.iter().filter(|p| p.is_dir()).collect();
        raw.retain(|(name, _, _)| {
            let parent = Path::new(name).parent().unwrap_or(Path::new(""));
            dirs.iter().any(|d| parent == d.as_path()) || !is_under(name, &dirs)
        });
        if let Some(dir) = dirs.first().filter(|_| raw.is_empty() && errors.is_empty()) {
            return Err(Error::usage(
                echo(&format!("no .tf file in `{}`", dir.display())),
                "give the folder of a Terraform module (its sub-folders are the modules it calls), or a plan's JSON",
            ));
        }
    }
    let several = inputs.paths.len() > 1;
    for (name, text, _) in &raw {
        let input = Input::of(Path::new(name), text, &inputs.limits);
        // A text no format claims is read as `format`: its importer says
        // what it lacks.
        if let Some(found) = input.format().filter(|f| !is(*f, format)) {
            return Err(not_of(name, found, format, several));
        }
    }
    let mut texts = texts_of(inputs, raw, skipped, errors, Some(format))?;
    match texts.len() {
        1 => Ok(texts.remove(0)),
        n => Err(Error::usage(
            format!(
                "`import {}` makes one skeleton, and these inputs make {n}",
                import_word(format)
            ),
            "give them to `check`, which reads them as one architecture",
        )),
    }
}

/// The argument shapes `import` refuses before reading: several files of a
/// format read one at a time, `.tfvars` files without Terraform, a folder
/// given as a CloudFormation template that is no cloud assembly.
fn refuse_shapes(paths: &[PathBuf], format: Format) -> Result<(), Error> {
    let vars = |p: &PathBuf| p.extension().is_some_and(|e| e == "tfvars");
    if format != Format::Terraform && paths.iter().any(vars) {
        return Err(Error::usage(
            "`--var-file` sets the variables of Terraform configuration",
            "give a .tf file or a module folder to `import terraform`",
        ));
    }
    let given: Vec<&PathBuf> = paths.iter().filter(|p| !vars(p)).collect();
    if given.len() > 1 && matches!(format, Format::Terraform | Format::AsyncApi) {
        let help = match format {
            Format::AsyncApi => "import each document on its own, or give them all to `check`",
            _ => "give their folder (`import terraform DIR`), or give the files to `check`",
        };
        return Err(Error::usage(
            format!("`import {}` reads one file", import_word(format)),
            help,
        ));
    }
    if format == Format::CloudFormation {
        use import::cloudformation::cdk;
        if let Some(dir) = given.iter().find(|p| p.is_dir() && !cdk::is_assembly(p)) {
            return Err(Error::usage(
                echo(&format!(
                    "`{}` is a folder, and not a CDK cloud assembly (no {} beside a `cdk.out` file)",
                    dir.display(),
                    cdk::MANIFEST
                )),
                "give a template file, or the folder `npx cdk synth` writes (cdk.out)",
            ));
        }
    }
    Ok(())
}

/// An export folder (`export-aws`'s), or AWS CLI output files given one by
/// one.
fn aws_export(inputs: &Inputs) -> Result<Text, Error> {
    let limits = &inputs.limits;
    let name = (inputs.paths.first()).map_or_else(String::new, |p| p.display().to_string());
    let imported = match inputs.paths.as_slice() {
        [dir] if dir.is_dir() => import::aws_export::import_dir(dir, limits)?,
        paths => {
            let mut files = Vec::new();
            for path in paths {
                files.push((path.display().to_string(), import::read_file(path, limits)?));
            }
            import::aws_export::import_files(&name, &files, limits)?
        }
    };
    Ok(Text {
        name,
        text: imported.text,
        imported: true,
    })
}

/// Whether file `name` lies under one of `dirs`.
fn is_under(name: &str, dirs: &[&PathBuf]) -> bool {
    dirs.iter().any(|d| Path::new(name).starts_with(d))
}

/// Whether `path` names the marker of an AWS CLI export folder.
pub(super) fn is_export_marker(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == import::aws_export::MARKER)
}
