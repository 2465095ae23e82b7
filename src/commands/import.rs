//! `import FORMAT PATHS`: a commented manifest skeleton from a template, a
//! plan, an AsyncAPI document or an AWS CLI export, read by the engine as
//! every command reads its inputs ([`engine::import`]).

use std::path::PathBuf;

use crate::cli::{Global, ImportArgs, ImportFormat};
use replay_audit::engine::{self, Inputs};
use replay_audit::import::{self, Format};

use super::{Outcome, limits, out};

pub fn run(args: &ImportArgs, g: &Global) -> Outcome {
    let ImportArgs {
        format,
        file,
        more,
        parameters,
        var_files,
    } = args;
    let parameters = import::parse_params(parameters)
        .map_err(|e| engine::Error::usage(e, "write --parameter Name=value"))?;
    let format = match format {
        ImportFormat::Cloudformation => Format::CloudFormation,
        ImportFormat::Terraform => Format::Terraform,
        ImportFormat::Asyncapi => Format::AsyncApi,
        ImportFormat::AwsExport => Format::AwsExport,
    };
    // `--var-file` files are read as `check` reads a `.tfvars` file named
    // among its paths: for every module.
    let paths: Vec<PathBuf> = std::iter::once(file)
        .chain(more)
        .chain(var_files)
        .cloned()
        .collect();
    let inputs = Inputs {
        paths,
        overrides: None,
        parameters,
        limits: limits(g),
        config: None,
    };
    let skeleton = engine::import(&inputs, format)?;
    // The coverage line on stderr (the resources not imported are listed
    // one by one, with their place, in the skeleton's header).
    if let Some(line) = import::coverage::of_skeleton(&skeleton.text) {
        eprintln!("{line}");
    }
    out(&skeleton.text)?;
    Ok(0)
}
