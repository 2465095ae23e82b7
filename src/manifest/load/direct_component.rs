//! The direct reader's components: kind, regions, links with their
//! retries and settings, the dedup guard, the backup and the component's
//! settings, read from the events as [`super::direct`] reads the rest.

use std::borrow::Cow;

use crate::manifest::model::*;
use crate::manifest::name::Names;
use crate::manifest::vocabulary::ON_EXPIRY;
use crate::manifest::yaml_events::{Bail, Cursor, Token, Typed};

use super::direct::*;
use super::values::{SettingRule, component_rule, link_rule};
use super::*;

/// A component; its kind and region names are shared through `names`.
pub(super) fn component<'t>(
    id: Sp<crate::manifest::name::Name>,
    cur: &mut Cursor<'_, 't>,
    token: Token<'t>,
    names: &mut Names,
) -> Read<Component> {
    let mut shared = |s: Sp<Cow<str>>| Sp::new(names.get(&s.value), s.loc);
    let mut c = Component::new(id.value, id.loc);
    let mut kind = None;
    let (mut settings, mut links) = (Vec::new(), Vec::new());
    map(cur, token, COMPONENT_FIELDS, |cur, name, v| {
        match name {
            "kind" => kind = Some(shared(text(v)?)),
            "description" => c.set_description(Some(string(v)?.value.into())),
            "regions" => c.regions = items(cur, v, |_, _, t| id_text(t).map(&mut shared))?.into(),
            "mode" => c.set_mode(Some(choice(v)?)),
            "dedup" => c.dedup = Some(Box::new(guard(cur, v)?)),
            "backup" => c.backup = Some(Box::new(backup(cur, v)?)),
            _ => {
                if let Some(&ty) = LinkType::ALL.iter().find(|t| t.field() == name) {
                    links.extend(self::links(cur, v, ty)?);
                } else {
                    let &field = Field::ALL.iter().find(|f| f.name() == name).ok_or(Bail)?;
                    settings.push((field, setting(cur, component_rule(field), v)?));
                }
            }
        }
        Ok(())
    })?;
    c.kind = kind.ok_or(Bail)?;
    c.catalog_kind = CatalogKind::of(&c.kind.value);
    c.set_links(links);
    c.set_settings(in_order(settings));
    Ok(c)
}

/// A setting's value read by `rule`, as the tree reader reads it.
fn setting<'t>(cur: &mut Cursor<'_, 't>, rule: SettingRule, v: Token<'t>) -> Read<Setting> {
    use SettingRule as R;
    Ok(match rule {
        R::Dur { allow_zero } => Setting::Dur(duration(v, allow_zero)?),
        R::Count { min } => Setting::Count(count(v, min)?),
        R::Bool => Setting::Bool(boolean(v)?),
        R::Text => Setting::Text(string(v)?),
        R::TextChoice(names) => Setting::Text(choice_text(v, names)?),
        R::List => Setting::List(string_list(cur, v)?),
        R::Delivery => Setting::Delivery(choice(v)?),
        R::Expiry => Setting::Expiry(choice(v)?),
        R::Replication => Setting::Replication(choice(v)?),
        R::DedupId => Setting::DedupId(choice(v)?),
        R::Mode => Setting::Mode(choice(v)?),
    })
}

fn links<'t>(cur: &mut Cursor<'_, 't>, token: Token<'t>, ty: LinkType) -> Read<Vec<Link>> {
    items(cur, token, |cur, _, t| link(cur, t, ty))
}

/// A link: a component id, or a mapping with `to`.
fn link<'t>(cur: &mut Cursor<'_, 't>, token: Token<'t>, ty: LinkType) -> Read<Link> {
    if let Token::Scalar(..) = token {
        // Only text is an id here; another scalar is refused as a mapping.
        let (Typed::Str(id), loc) = scalar(token)? else {
            return Err(Bail);
        };
        let to = Ref::new(valid(Sp::new(id.into_owned(), loc))?);
        return Ok(Link::new(ty, loc, to));
    }
    let (mut to, mut retry, mut settings) = (None, None, Vec::new());
    let loc = map(cur, token, link_fields(ty), |cur, name, v| {
        match name {
            "to" => to = Some(component_ref(v)?),
            "retry" => retry = Some(Box::new(retry_of(cur, v)?)),
            _ => {
                let &field = LinkField::ALL
                    .iter()
                    .find(|f| f.name() == name)
                    .ok_or(Bail)?;
                settings.push((field, setting(cur, link_rule(field), v)?));
            }
        }
        Ok(())
    })?;
    let mut l = Link::new(ty, loc, to.ok_or(Bail)?);
    l.retry = retry;
    l.set_settings(in_order(settings));
    Ok(l)
}

fn retry_of<'t>(cur: &mut Cursor<'_, 't>, token: Token<'t>) -> Read<Retry> {
    let mut r = Retry::default();
    r.loc = map(cur, token, RETRY_FIELDS, |_, name, v| {
        match name {
            "attempts" => r.attempts = Some(count(v, 1)?),
            "timeout" => r.timeout = Some(duration(v, false)?),
            "backoff" => r.backoff = Some(duration(v, true)?),
            "multiplier" => r.multiplier = Some(number(v)?),
            "max_backoff" => r.max_backoff = Some(duration(v, true)?),
            "max_elapsed" => r.max_elapsed = Some(duration(v, false)?),
            _ => return Err(Bail),
        }
        Ok(())
    })?;
    Ok(r)
}

fn guard<'t>(cur: &mut Cursor<'_, 't>, token: Token<'t>) -> Read<Guard> {
    let (mut store, mut claim, mut in_progress) = (None, None, None);
    let (mut binds_fingerprint, mut stores_result) = (None, None);
    let loc = map(cur, token, GUARD_FIELDS, |cur, name, v| {
        match name {
            "store" => store = Some(component_ref(v)?),
            "claim" => claim = Some(choice(v)?),
            "binds_fingerprint" => binds_fingerprint = Some(boolean(v)?),
            "stores_result" => stores_result = Some(boolean(v)?),
            "in_progress" => in_progress = Some(in_progress_of(cur, v)?),
            _ => return Err(Bail),
        }
        Ok(())
    })?;
    Ok(Guard {
        loc,
        store: store.ok_or(Bail)?,
        claim,
        binds_fingerprint,
        stores_result,
        in_progress,
    })
}

fn in_progress_of<'t>(cur: &mut Cursor<'_, 't>, token: Token<'t>) -> Read<InProgress> {
    let (mut on_conflict, mut expires_after, mut on_expiry) = (None, None, None);
    let loc = map(cur, token, IN_PROGRESS_FIELDS, |_, name, v| {
        match name {
            "on_conflict" => on_conflict = Some(string(v)?),
            "expires_after" => expires_after = Some(duration(v, false)?),
            "on_expiry" => on_expiry = Some(choice_text(v, ON_EXPIRY)?),
            _ => return Err(Bail),
        }
        Ok(())
    })?;
    Ok(InProgress {
        loc,
        on_conflict,
        expires_after,
        on_expiry,
    })
}

fn backup<'t>(cur: &mut Cursor<'_, 't>, token: Token<'t>) -> Read<Backup> {
    let mut b = Backup::default();
    b.loc = map(cur, token, BACKUP_FIELDS, |cur, name, v| {
        match name {
            "rpo" => b.rpo = Some(duration(v, true)?),
            "restored_with" => b.restored_with = items(cur, v, |_, _, t| component_ref(t))?,
            _ => return Err(Bail),
        }
        Ok(())
    })?;
    Ok(b)
}
