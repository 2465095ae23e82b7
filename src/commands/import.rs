//! `import FORMAT FILE`: a commented manifest skeleton from a template, a
//! plan or an AsyncAPI document.

use crate::cli::{Global, ImportArgs, ImportFormat};
use replay_audit::diagnostics::{a, echo};
use replay_audit::engine;
use replay_audit::import::{self, Format, Imported, terraform};
use replay_audit::manifest::{Limits, LoadError};

use std::path::{Path, PathBuf};

use super::{Outcome, limits, out};

pub fn run(args: &ImportArgs, g: &Global) -> Outcome {
    let ImportArgs {
        format,
        file,
        more,
        parameters,
        var_files,
    } = args;
    let limits = limits(g);
    let params = import::parse_params(parameters)
        .map_err(|e| engine::Error::usage(e, "write --parameter Name=value"))?;
    let format = match format {
        ImportFormat::Cloudformation => Format::CloudFormation,
        ImportFormat::Terraform => Format::Terraform,
        ImportFormat::Asyncapi => Format::AsyncApi,
        ImportFormat::AwsExport => Format::AwsExport,
    };
    if format == Format::AwsExport {
        return aws_export(file, more, &limits);
    }
    if !more.is_empty() {
        return templates(file, more, format, &params, &limits);
    }
    if format == Format::Terraform && (file.is_dir() || terraform::is_config_file(file)) {
        let imported =
            terraform_config(file, var_files, &params, &limits).map_err(engine::Error::from)?;
        return finish(&imported);
    }
    if format == Format::CloudFormation && file.is_dir() {
        return assembly(file, &params, &limits);
    }
    if !var_files.is_empty() {
        return Err(engine::Error::usage(
            "`--var-file` sets the variables of Terraform configuration",
            "give a .tf file or a module folder to `import terraform`",
        ));
    }
    let text = import::read_file(file, &limits).map_err(engine::Error::from)?;
    let name = file.display().to_string();
    if let Some(found) = import::detect(&text, &limits).filter(|f| *f != format) {
        return Err(engine::Error::usage(
            echo(&format!(
                "`{name}` is {}, not {}",
                a(found.name()),
                a(format.name())
            )),
            echo(&format!(
                "run `replay-audit import {} {name}`",
                command(found)
            )),
        ));
    }
    let imported = match format {
        // A template may nest others (local `TemplateURL`s).
        Format::CloudFormation => {
            import::cloudformation::import_stacks(&[(name, text)], &params, &limits)
        }
        _ => import::import_text(format, &name, &text, &params, &limits),
    }
    .map_err(engine::Error::from)?;
    finish(&imported)
}

/// A CDK cloud assembly folder (`cdk.out`): every stack of it, and of its
/// stages, as one architecture.
fn assembly(dir: &Path, params: &[(String, String)], limits: &Limits) -> Outcome {
    use import::cloudformation::cdk;
    if !cdk::is_assembly(dir) {
        return Err(engine::Error::usage(
            echo(&format!(
                "`{}` is a folder, and not a CDK cloud assembly (no {} beside a `cdk.out` file)",
                dir.display(),
                cdk::MANIFEST
            )),
            "give a template file, or the folder `npx cdk synth` writes (cdk.out)",
        ));
    }
    let manifest = dir.join(cdk::MANIFEST);
    // Found in the folder given, so never read through a symbolic link.
    let text = replay_audit::files::read_found(&manifest, limits.max_file_bytes).map_err(|d| {
        engine::Error::from(LoadError {
            sources: Default::default(),
            diagnostics: vec![d],
        })
    })?;
    let templates = cdk::templates(&manifest, &text, limits).map_err(engine::Error::from)?;
    let imported = import::cloudformation::import_templates(&templates, params, limits)
        .map_err(engine::Error::from)?;
    finish(&imported)
}

/// An export folder (`export-aws`'s), or CLI output files given one by one.
fn aws_export(file: &Path, more: &[PathBuf], limits: &Limits) -> Outcome {
    let imported = if file.is_dir() && more.is_empty() {
        import::aws_export::import_dir(file, limits)
    } else {
        let mut files = Vec::new();
        for path in std::iter::once(file).chain(more.iter().map(PathBuf::as_path)) {
            let text = import::read_file(path, limits).map_err(engine::Error::from)?;
            files.push((path.display().to_string(), text));
        }
        import::aws_export::import_files(&file.display().to_string(), &files, limits)
    }
    .map_err(engine::Error::from)?;
    finish(&imported)
}

/// Several templates imported together (`import cloudformation A B`).
fn templates(
    file: &Path,
    more: &[PathBuf],
    format: Format,
    params: &[(String, String)],
    limits: &Limits,
) -> Outcome {
    if format != Format::CloudFormation {
        let help = match format {
            Format::AsyncApi => "import each document on its own, or give them all to `check`",
            _ => "give their folder (`import terraform DIR`), or give the files to `check`",
        };
        return Err(engine::Error::usage(
            format!("`import {}` reads one file", command(format)),
            help,
        ));
    }
    let mut files = Vec::new();
    for path in std::iter::once(file).chain(more.iter().map(PathBuf::as_path)) {
        let text = import::read_file(path, limits).map_err(engine::Error::from)?;
        let name = path.display().to_string();
        if let Some(found) = import::detect(&text, limits).filter(|f| *f != format) {
            return Err(engine::Error::usage(
                echo(&format!(
                    "`{name}` is {}, not {}",
                    a(found.name()),
                    a(format.name())
                )),
                "give only CloudFormation templates to `import cloudformation`",
            ));
        }
        files.push((name, text));
    }
    let imported = import::cloudformation::import_stacks(&files, params, limits)
        .map_err(engine::Error::from)?;
    finish(&imported)
}

/// Prints the skeleton, and its coverage line on stderr (the resources
/// not imported are listed one by one, with their place, in its header).
fn finish(imported: &Imported) -> Outcome {
    if let Some(line) = import::coverage::of_skeleton(&imported.text) {
        eprintln!("{line}");
    }
    out(&imported.text)?;
    Ok(0)
}

/// The `import` argument that reads `format`.
fn command(format: Format) -> &'static str {
    match format {
        Format::CloudFormation => "cloudformation",
        Format::Terraform | Format::TerraformHcl => "terraform",
        Format::AsyncApi => "asyncapi",
        Format::AwsExport => "aws-export",
    }
}

/// A Terraform module folder (its `.tf` files, `terraform.tfvars` and
/// `*.auto.tfvars`) or one `.tf` file, then the `--var-file` files.
fn terraform_config(
    path: &Path,
    var_files: &[PathBuf],
    params: &[(String, String)],
    limits: &Limits,
) -> Result<Imported, LoadError> {
    let name = path.display().to_string();
    let mut vars = Vec::new();
    for f in var_files {
        vars.push((f.display().to_string(), import::read_file(f, limits)?));
    }
    if path.is_dir() {
        return terraform::import_dir(path, vars, params, limits);
    }
    let mut files = vec![(name.clone(), import::read_file(path, limits)?)];
    files.extend(vars);
    terraform::import_hcl(&name, &files, params)
}
