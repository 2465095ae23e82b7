//! Terraform configuration as an input: which files are `.tf` and
//! `.tfvars`, the files of a module folder, the modules among a command's
//! inputs (one per folder), and importing one module's files into a
//! manifest skeleton.

use std::path::{Path, PathBuf};

use super::{cache, hcl, modules, roots};
use crate::diagnostics::{Diagnostic, SourceMap};
use crate::files::Origin;
use crate::import::{Format, Imported, Out};
use crate::manifest::{Limits, LoadError};

/// A `.tf` file (Terraform configuration in HCL), or a `.tf.json` file
/// (the same in Terraform's JSON syntax, which is refused with a way to
/// convert it).
pub fn is_config_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "tf") || is_json_config(path)
}

/// A `.tf.json` file.
fn is_json_config(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".tf.json"))
}

/// A `.tfvars` file (variable values).
pub fn is_vars_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "tfvars")
}

/// A file a folder scan reads for Terraform: `.tf` files, and the variable
/// files Terraform loads by itself (`terraform.tfvars`, `*.auto.tfvars`);
/// nothing under `.terraform/`, which holds downloaded copies of modules.
pub fn is_found_input(path: &Path) -> bool {
    let cache = path.components().any(|c| c.as_os_str() == ".terraform");
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !cache && (is_config_file(path) || name == "terraform.tfvars" || name.ends_with(".auto.tfvars"))
}

/// The order Terraform reads a module's files in: configuration, then
/// `terraform.tfvars`, then the other variable files (later ones win).
fn precedence(name: &str) -> u8 {
    let path = Path::new(name);
    match path.file_name().and_then(|n| n.to_str()) {
        _ if is_config_file(path) => 0,
        Some("terraform.tfvars") => 1,
        _ => 2,
    }
}

/// The Terraform files of module folder `dir` (not its subfolders, which
/// are other modules), sorted, read without following links.
pub fn read_dir(dir: &Path, limits: &Limits) -> Result<Vec<(String, String)>, LoadError> {
    let fail = |d: Diagnostic| LoadError {
        sources: SourceMap::default(),
        diagnostics: vec![d],
    };
    let mut paths =
        crate::files::list_dir(dir, |p| is_found_input(p.strip_prefix(dir).unwrap_or(p)))
            .map_err(fail)?;
    paths.sort_by_key(|p| (precedence(&p.display().to_string()), p.clone()));
    let mut files = Vec::new();
    for p in paths {
        let text = crate::files::read(&p, Origin::Found, limits.max_file_bytes).map_err(fail)?;
        files.push((p.display().to_string(), text));
    }
    if !files.iter().any(|(n, _)| is_config_file(Path::new(n))) {
        return Err(fail(
            Diagnostic::new(None, format!("no .tf file in `{}`", dir.display()))
                .help("give the folder of a Terraform module, or a plan's JSON"),
        ));
    }
    Ok(files)
}

/// Imports one module: `files` are its `.tf` and `.tfvars` files (name,
/// text; variable files in precedence order), `params` the `--var`
/// values; `label` names it in the skeleton's header.
pub fn import_hcl(
    label: &str,
    files: &[(String, String)],
    params: &[(String, String)],
) -> Result<Imported, LoadError> {
    let group = (PathBuf::from(label), label.to_string(), files.to_vec());
    let mut imported = import_groups(&[group], params, &Limits::default())?;
    Ok(imported.remove(0).1)
}

/// Imports module folder `dir` with the local module folders it calls
/// (`source = "./x"`, followed to [`modules::MAX_INSTANCES`] folders; a
/// folder that cannot be read, is a symbolic link, or lies outside the
/// work tree when `dir` lies in it stays a TODO:
/// [`crate::files::stays_in_tree`]), and the registry or remote modules
/// its module cache holds ([`cache`]), then `var_files` for the root.
pub fn import_dir(
    dir: &Path,
    var_files: Vec<(String, String)>,
    params: &[(String, String)],
    limits: &Limits,
) -> Result<Imported, LoadError> {
    let mut root = read_dir(dir, limits)?;
    root.extend(var_files);
    let label = dir.display().to_string();
    let mut groups = vec![(dir.to_path_buf(), label.clone(), root)];
    follow_local_calls(&mut groups, dir, limits);
    let mut all = import_groups(&groups, params, limits)?;
    let at = all.iter().position(|(g, _)| *g == 0).unwrap_or(0);
    Ok(all.swap_remove(at).1)
}

/// Adds to `groups` the local module folders they call (`source =
/// "./x"`), followed to [`modules::MAX_INSTANCES`] folders; a folder that
/// cannot be read, is a symbolic link, or lies outside the work tree when
/// `root` lies in it ([`crate::files::stays_in_tree`]) stays a TODO.
fn follow_local_calls(groups: &mut Vec<(PathBuf, String, Files)>, root: &Path, limits: &Limits) {
    let mut next = 0;
    while next < groups.len() && groups.len() < modules::MAX_INSTANCES {
        let calls = modules::local_calls(&groups[next].0, &groups[next].2);
        next += 1;
        for d in calls {
            // `source = "../../"` from `examples/x` is the current folder.
            let here = match d.as_os_str().is_empty() {
                true => Path::new("."),
                false => d.as_path(),
            };
            let link = std::fs::symlink_metadata(here).map_or(true, |m| m.is_symlink());
            let outside = !crate::files::stays_in_tree(here, root);
            if link || outside || groups.iter().any(|g| modules::normal(&g.0) == d) {
                continue;
            }
            if let Ok(files) = read_dir(here, limits) {
                groups.push((d.clone(), d.display().to_string(), files));
            }
        }
    }
}

/// Imports module folders (folder, label, files) together: each folder no
/// other one calls is a root, imported with the folders it calls
/// ([`modules`]); one skeleton per root, with the number of its folder.
fn import_groups(
    given: &[(PathBuf, String, Files)],
    params: &[(String, String)],
    limits: &Limits,
) -> Result<Vec<(usize, Imported)>, LoadError> {
    let (groups, caches) = with_caches(given, limits);
    let groups = &groups;
    let mut sources = SourceMap::default();
    let mut folders = Vec::new();
    let mut errors = Vec::new();
    let mut input = 0usize;
    for ((dir, _, files), (cache, cached)) in groups.iter().zip(caches) {
        let mut bodies = Vec::new();
        for (name, text) in files {
            input += text.len();
            let file = sources.add(name.clone(), text.clone());
            if is_json_config(Path::new(name)) {
                errors.push(json_syntax(name));
                continue;
            }
            if hcl::looks_like_plan(text) {
                errors.push(plan_given_to_hcl(name));
                continue;
            }
            match hcl::parse(text, file) {
                Ok(b) => bodies.push((name.clone(), b, is_vars_file(Path::new(name)))),
                Err(d) => errors.push(d),
            }
        }
        folders.push(modules::Folder {
            dir: dir.clone(),
            files: bodies,
            cache,
            cached,
        });
    }
    if !errors.is_empty() {
        return Err(LoadError {
            sources,
            diagnostics: errors,
        });
    }
    // Evaluated values may not outweigh the input many times over.
    let budget = input.saturating_mul(16).max(1 << 20);
    let names: std::sync::Arc<[String]> = sources.files.iter().map(|f| f.path.clone()).collect();
    let mut out_list = Vec::new();
    let roots = modules::roots(&folders);
    let trees: Vec<modules::Tree> = roots
        .iter()
        .map(|r| modules::read(&folders, *r, params, budget))
        .collect();
    let spaces = roots::namespaces(
        &roots
            .iter()
            .zip(&trees)
            .map(|(r, t)| (folders[*r].dir.as_path(), &t.root))
            .collect::<Vec<_>>(),
    );
    let mut outs = Vec::with_capacity(roots.len());
    for ((root, tree), ns) in roots.iter().zip(&trees).zip(&spaces) {
        outs.push(root_out(
            &groups[*root].1,
            &names,
            &folders,
            tree,
            ns.as_ref(),
        ));
    }
    let nodes: Vec<&crate::import::Node> = trees.iter().map(|t| &t.root).collect();
    let aliased = super::across::read(&nodes, &mut outs, &spaces);
    for ((out, tree), aliased) in outs.iter_mut().zip(&trees).zip(&aliased) {
        if let Some((r, at)) = &tree.region {
            let at = format!("from provider \"aws\" region ({at})");
            super::provider_region(out, r, &at, aliased);
        }
        super::alias_regions(out, aliased, |_, key| {
            let (_, r, at) = tree.aliases.iter().find(|a| a.0 == key)?;
            let alias = key.trim_start_matches("aws.");
            Some((
                r.clone(),
                format!("from provider \"aws\" alias \"{alias}\" region ({at})"),
            ))
        });
    }
    super::across::declare_missing(&mut outs);
    let mut declared = std::collections::BTreeSet::new();
    for (root, mut out) in roots.into_iter().zip(outs) {
        // A region another root's skeleton declares is declared once.
        out.regions.retain(|(r, _)| declared.insert(r.clone()));
        out_list.push((
            root,
            Imported {
                unsupported: out.unsupported.iter().map(|(w, _)| w.clone()).collect(),
                text: out.render(),
            },
        ));
    }
    Ok(out_list)
}

/// A folder's module cache (key, folder number) and whether it was read
/// from a cache.
type CacheMark = (Vec<(String, usize)>, bool);

/// The module folders `given` with the modules cached for each
/// ([`cache`]: `.terraform/modules/modules.json` beside it) after them;
/// for each folder, its cache (key, folder number) and whether it was
/// read from a cache. A cached folder already given (a local module) is
/// not read twice.
fn with_caches(
    given: &[(PathBuf, String, Files)],
    limits: &Limits,
) -> (Vec<(PathBuf, String, Files)>, Vec<CacheMark>) {
    let mut groups = given.to_vec();
    let mut marks: Vec<CacheMark> = vec![(Vec::new(), false); given.len()];
    for g in 0..given.len() {
        for c in cache::read(&given[g].0, limits) {
            if groups.len() >= modules::MAX_INSTANCES * 4 {
                break;
            }
            let at = groups.iter().position(|x| modules::normal(&x.0) == c.dir);
            let at = at.unwrap_or_else(|| {
                groups.push((c.dir.clone(), c.dir.display().to_string(), c.files));
                marks.push((Vec::new(), true));
                groups.len() - 1
            });
            marks[g].0.push((c.key, at));
        }
    }
    (groups, marks)
}

/// The output of root `tree` (named `label`) before its resources are
/// read: the input files it read, its region TODOs and notes.
fn root_out(
    label: &str,
    names: &std::sync::Arc<[String]>,
    folders: &[modules::Folder],
    tree: &modules::Tree,
    ns: Option<&roots::Namespace>,
) -> Out {
    let mut out = Out::new(label, Format::TerraformHcl);
    out.files = names.clone();
    out.coverage.total = tree.blocks;
    // Several files: named in the header, so that `check` points into each.
    let configs: Vec<&String> = tree
        .read
        .iter()
        .flat_map(|i| folders[*i].files.iter().filter(|f| !f.2).map(|f| &f.0))
        .collect();
    if configs.len() > 1 || configs.first().is_some_and(|n| *n != label) {
        out.notes
            .extend(configs.iter().map(|n| format!("input file: {n}")));
    }
    out.notes.push(match &tree.region {
        Some((r, at)) => format!("TODO: regions: the aws provider runs in `{r}` ({at}), the region of every component; add the failover settings of `regions.{r}`."),
        None => "TODO: regions: the configuration sets no aws provider region; add `regions:` where it matters.".into(),
    });
    if !tree.aliases.is_empty() {
        let each: Vec<String> = tree
            .aliases
            .iter()
            .map(|(k, r, at)| format!("`{k}` in `{r}` ({at})"))
            .collect();
        out.notes.push(format!("TODO: regions: a resource with `provider = aws.ALIAS` runs in its provider's region: {}.", each.join(", ")));
    }
    out.notes.extend(tree.notes.iter().cloned());
    if let Some(ns) = ns.filter(|n| !n.taken.is_empty()) {
        out.notes.push(format!("several root modules are imported together: the id of a resource whose name another root uses too starts with `{}.`", ns.prefix));
    }
    out
}

/// The error for a `.tf.json` file: not read, and how to give its content.
fn json_syntax(name: &str) -> Diagnostic {
    Diagnostic::new(
        None,
        format!("`{name}` is Terraform configuration in JSON syntax (.tf.json), which is not read"),
    )
    .help("give the same blocks as HCL in a .tf file, or import a plan of the configuration: `terraform plan -out=tfplan && terraform show -json tfplan > plan.json`, then `replay-audit import terraform plan.json`")
}

fn plan_given_to_hcl(name: &str) -> Diagnostic {
    Diagnostic::new(
        None,
        format!("`{name}` holds a Terraform plan's JSON, not configuration (HCL)"),
    )
    .help("import a plan from a file named *.json (`replay-audit import terraform plan.json`); `.tf` files are read as HCL")
}

/// The error for HCL given to the plan reader, when `text` reads as HCL.
pub fn hcl_given_to_plan(name: &str, text: &str) -> Option<Diagnostic> {
    hcl::looks_like_hcl(text).then(|| {
        Diagnostic::new(
            None,
            format!("`{name}` is Terraform configuration (HCL), not a plan's JSON"),
        )
        .help("name it *.tf (or give its folder) to import the configuration, or make a plan's JSON with `terraform plan -out=tfplan && terraform show -json tfplan > plan.json`")
    })
}

/// Files by name, with their text.
type Files = Vec<(String, String)>;

/// The Terraform files among a command's inputs, grouped into modules (one
/// per folder), each remembered with the place of its first file among the
/// other inputs.
#[derive(Default)]
pub struct Modules {
    /// (folder, slot, files): `.tf` and found `.tfvars` files.
    groups: Vec<(PathBuf, usize, Files)>,
    /// The groups found by a folder scan: named by their folder, as a
    /// module is, even when it holds one `.tf` file.
    scanned: std::collections::HashSet<usize>,
    /// `.tfvars` files named on the command line: for every module.
    given_vars: Vec<(String, String)>,
    /// Position in `groups` by folder (a search of `groups` per file made
    /// reading N folders quadratic).
    by_dir: std::collections::HashMap<PathBuf, usize>,
}

impl Modules {
    /// Whether `path` is a Terraform file this collects.
    pub fn wants(path: &Path) -> bool {
        is_config_file(path) || is_vars_file(path)
    }

    /// Adds a file read from `path`; `slot` is the number of inputs before it.
    pub fn add(&mut self, path: &Path, origin: Origin, text: String, slot: usize) {
        let name = path.display().to_string();
        if is_vars_file(path) && origin == Origin::Given {
            self.given_vars.push((name, text));
            return;
        }
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let g = match self.by_dir.get(&dir) {
            Some(&g) => {
                self.groups[g].2.push((name, text));
                g
            }
            None => {
                self.by_dir.insert(dir.clone(), self.groups.len());
                self.groups.push((dir, slot, vec![(name, text)]));
                self.groups.len() - 1
            }
        };
        if origin == Origin::Found {
            self.scanned.insert(g);
        }
    }

    /// Every module imported: (slot, name, manifest text), in input order.
    pub fn import(
        self,
        params: &[(String, String)],
    ) -> Result<Vec<(usize, String, String)>, LoadError> {
        let mut groups = Vec::new();
        let mut slots = Vec::new();
        for (g, (dir, slot, mut files)) in self.groups.into_iter().enumerate() {
            let configs: Vec<&String> = files
                .iter()
                .map(|f| &f.0)
                .filter(|n| is_config_file(Path::new(n)))
                .collect();
            let label = match configs.as_slice() {
                [] => continue,
                [one] if !self.scanned.contains(&g) => (*one).clone(),
                _ => dir.display().to_string(),
            };
            files.sort_by_key(|f| precedence(&f.0));
            files.extend(self.given_vars.iter().cloned());
            groups.push((dir, label, files));
            slots.push(slot);
        }
        let any = !groups.is_empty();
        // The local folders the modules call are read with them, as
        // `import` reads a module folder.
        let given = groups.len();
        for g in 0..given {
            let root = groups[g].0.clone();
            follow_local_calls(&mut groups, &root, &Limits::default());
        }
        // The engine passes no limits here: the module caches are read
        // under the default ones.
        let out = import_groups(&groups, params, &Limits::default())?
            .into_iter()
            .filter(|(g, _)| *g < given)
            .map(|(g, imported)| {
                (
                    slots[g],
                    format!("{} (imported)", groups[g].1),
                    imported.text,
                )
            })
            .collect();
        if let (false, Some((name, _))) = (any, self.given_vars.first()) {
            return Err(LoadError {
                sources: SourceMap::default(),
                diagnostics: vec![
                    Diagnostic::new(
                        None,
                        format!(
                            "`{name}` sets Terraform variables, but no .tf file is among the inputs"
                        ),
                    )
                    .help("give the .tf files (or their folder) with the .tfvars file"),
                ],
            });
        }
        Ok(out)
    }
}
