//! The direct reader: the typed model read straight from the parser's
//! events, one section entry at a time, with no span tree and no field
//! path formatted.
//!
//! It reads valid entries only. Anything the tree reader
//! ([`super::sections`]) would report or read in a way of its own (an
//! unknown or repeated field, a wrong type, a bad id, duration, count or
//! choice, a missing required field, an anchor or alias, `effect` and
//! `effects` together) makes it give up on the whole file ([`Bail`]), and
//! [`super::stream_texts`] reads the file again with the tree reader, which
//! words every error. Values go through the same rules as the tree
//! reader's ([`super::values`]), and locations are the events' marks, as
//! the tree's nodes carry them.

use std::borrow::Cow;

use crate::diagnostics::Loc;
use crate::manifest::model::*;
use crate::manifest::name::{Name, Names};
use crate::manifest::yaml::{Node, Piece, Value};
use crate::manifest::yaml_events::{Bail, Cursor, Sink, Token, Typed, typed_scalar};
use crate::time::Dur;

use super::values::{bool_of, choice_of, count_of, duration_of, number_of, string_of};
use super::*;

pub(super) type Read<T> = Result<T, Bail>;

/// A [`Sink`] reading a document's entries into `out` (the other pieces
/// are read by the tree reader's [`Reader::piece`]).
pub(super) struct Direct<'a> {
    pub r: &'a mut Reader,
    pub doc: &'a mut Doc,
    pub out: &'a mut Collected,
}

impl Sink for Direct<'_> {
    fn piece(&mut self, piece: Piece) {
        self.r.piece(piece, self.doc, self.out)
    }

    fn entry(&mut self, key: Node, value: &mut Cursor) -> Read<()> {
        let text = match key.value {
            Value::Str(s) => s,
            v => v.scalar_text().ok_or(Bail)?,
        };
        // The id is shared: the set of defined ids and the component hold
        // one text.
        let id = Sp::new(crate::manifest::name::Name::from(text), key.loc);
        let what = match SECTIONS[self.doc.section] {
            "regions" => "region",
            "intents" => "intent",
            _ => "component",
        };
        // As [`Reader::entry`]: an id refused is not read further.
        if !self.r.define(&id, what) {
            return value.skip();
        }
        let first = value.token()?;
        match what {
            "region" => self.out.regions.push(region(owned(id), value, first)?),
            "intent" => self
                .out
                .intents
                .push(intent(owned(id), value, first, &mut self.r.names)?),
            _ => self.out.components.push(super::direct_component::component(
                id,
                value,
                first,
                &mut self.r.names,
            )?),
        }
        Ok(())
    }
}

/// An id as the region and intent models keep it (owned text).
fn owned(id: Sp<crate::manifest::name::Name>) -> Sp<String> {
    Sp::new(id.value.as_str().to_owned(), id.loc)
}

/// A scalar's typed value and place; its text still the parser's, so a
/// value parsed at once (a duration, a choice, a name looked up) is never
/// copied.
pub(super) fn scalar(token: Token) -> Read<(Typed, Loc)> {
    match token {
        Token::Scalar(text, style, loc) => Ok((typed_scalar(text, style)?, loc)),
        _ => Err(Bail),
    }
}

/// A scalar as text (numbers and booleans as their text), not copied.
pub(super) fn text(token: Token) -> Read<Sp<Cow<str>>> {
    let (v, loc) = scalar(token)?;
    let s = match v {
        Typed::Str(s) => s,
        v => Cow::Owned(string_of(&v).ok_or(Bail)?.into_owned()),
    };
    Ok(Sp::new(s, loc))
}

/// A scalar as text the model keeps.
pub(super) fn string(token: Token) -> Read<Sp<String>> {
    text(token).map(|s| Sp::new(s.value.into_owned(), s.loc))
}

pub(super) fn id_ref(token: Token) -> Read<Sp<String>> {
    id_text(token).map(|s| Sp::new(s.value.into_owned(), s.loc))
}

/// A scalar that must be a valid id, as text not copied.
pub(super) fn id_text(token: Token) -> Read<Sp<Cow<str>>> {
    valid(text(token)?)
}

/// `s` if it is a valid id.
pub(super) fn valid<S: AsRef<str>>(s: Sp<S>) -> Read<Sp<S>> {
    if is_valid_id(s.value.as_ref()) {
        Ok(s)
    } else {
        Err(Bail)
    }
}

pub(super) fn component_ref(token: Token) -> Read<Ref> {
    id_ref(token).map(Ref::new)
}

pub(super) fn boolean(token: Token) -> Read<Sp<bool>> {
    let (v, loc) = scalar(token)?;
    Ok(Sp::new(bool_of(&v).ok_or(Bail)?, loc))
}

pub(super) fn count(token: Token, min: u64) -> Read<Sp<u64>> {
    let (v, loc) = scalar(token)?;
    Ok(Sp::new(count_of(&v, min).map_err(|_| Bail)?, loc))
}

pub(super) fn number(token: Token) -> Read<Sp<f64>> {
    let (v, loc) = scalar(token)?;
    Ok(Sp::new(number_of(&v).map_err(|_| Bail)?, loc))
}

pub(super) fn duration(token: Token, allow_zero: bool) -> Read<Sp<Dur>> {
    let (v, loc) = scalar(token)?;
    Ok(Sp::new(duration_of(&v, allow_zero).map_err(|_| Bail)?, loc))
}

/// One of the names of `T`.
pub(super) fn choice<T: Named>(token: Token) -> Read<Sp<T>> {
    let s = text(token)?;
    let i = choice_of(&s.value, T::NAMES).ok_or(Bail)?;
    Ok(Sp::new(T::ALL[i], s.loc))
}

/// One of `names`, kept as text.
pub(super) fn choice_text(token: Token, names: &[&str]) -> Read<Sp<String>> {
    let s = text(token)?;
    let i = choice_of(&s.value, names).ok_or(Bail)?;
    Ok(Sp::new(names[i].to_string(), s.loc))
}

/// A list of strings, or one string as a list of one.
pub(super) fn string_list<'t>(cur: &mut Cursor<'_, 't>, token: Token<'t>) -> Read<Sp<Vec<String>>> {
    text_list(cur, token, |s| s.into_owned())
}

/// [`string_list`] with each item shared through `names`.
pub(super) fn name_list<'t>(
    cur: &mut Cursor<'_, 't>,
    token: Token<'t>,
    names: &mut Names,
) -> Read<Sp<Vec<Name>>> {
    text_list(cur, token, |s| names.get(&s))
}

/// A list of strings, or one string as a list of one, each item's text
/// made into what the model keeps by `keep`.
fn text_list<'t, T>(
    cur: &mut Cursor<'_, 't>,
    token: Token<'t>,
    mut keep: impl FnMut(Cow<'t, str>) -> T,
) -> Read<Sp<Vec<T>>> {
    if let Token::SeqStart(loc) = token {
        let v = items(cur, token, |_, _, t| text(t).map(|s| keep(s.value)))?;
        return Ok(Sp::new(v, loc));
    }
    match scalar(token)? {
        (Typed::Str(s), loc) => Ok(Sp::new(vec![keep(s)], loc)),
        _ => Err(Bail),
    }
}

/// Each item of a field that takes one item or a list of them, read by
/// `item` with its index.
pub(super) fn items<'t, T>(
    cur: &mut Cursor<'_, 't>,
    token: Token<'t>,
    mut item: impl FnMut(&mut Cursor<'_, 't>, usize, Token<'t>) -> Read<T>,
) -> Read<Vec<T>> {
    let Token::SeqStart(_) = token else {
        return Ok(vec![item(cur, 0, token)?]);
    };
    let mut out = Vec::new();
    loop {
        match cur.token()? {
            Token::SeqEnd => return Ok(out),
            t => out.push(item(cur, out.len(), t)?),
        }
    }
}

/// A mapping of `known` fields, each value handed to `field` with the
/// field's name; its place. A key that is not a known field, or one
/// written twice, bails.
pub(super) fn map<'t>(
    cur: &mut Cursor<'_, 't>,
    token: Token<'t>,
    known: &'static [&'static str],
    mut field: impl FnMut(&mut Cursor<'_, 't>, &'static str, Token<'t>) -> Read<()>,
) -> Read<Loc> {
    let Token::MapStart(loc) = token else {
        return Err(Bail);
    };
    let mut seen = 0u64;
    loop {
        let key = match cur.token()? {
            Token::MapEnd => return Ok(loc),
            Token::Scalar(text, ..) => text,
            _ => return Err(Bail),
        };
        let i = choice_of(&key, known).filter(|&i| i < 64).ok_or(Bail)?;
        if seen & (1 << i) != 0 {
            return Err(Bail);
        }
        seen |= 1 << i;
        let value = cur.token()?;
        field(cur, known[i], value)?;
    }
}

fn region<'t>(id: Sp<String>, cur: &mut Cursor<'_, 't>, token: Token<'t>) -> Read<Region> {
    let mut r = Region::new(id);
    if let Token::Scalar(..) = token {
        // Only a null region needs no mapping.
        return match scalar(token)?.0 {
            Typed::Null => Ok(r),
            _ => Err(Bail),
        };
    }
    map(cur, token, REGION_FIELDS, |_, name, v| {
        match name {
            "failover_to" => r.failover_to = Some(id_ref(v)?),
            "detection" => r.detection = Some(duration(v, true)?),
            "catch_up" => r.catch_up = Some(duration(v, true)?),
            _ => return Err(Bail),
        }
        Ok(())
    })?;
    Ok(r)
}

/// An intent; the names its lists give are shared through `names`.
fn intent<'t>(
    id: Sp<String>,
    cur: &mut Cursor<'_, 't>,
    token: Token<'t>,
    names: &mut Names,
) -> Read<Intent> {
    let (mut origin, mut effects) = (None, None);
    let mut key = Key::default();
    let (mut fingerprint, mut tested, mut description) = (None, None, None);
    let mut replays = Vec::new();
    map(cur, token, INTENT_FIELDS, |cur, name, v| {
        match name {
            "origin" => origin = Some(component_ref(v)?),
            // Both written: the tree reader reads `effect` alone.
            "effect" | "effects" if effects.is_some() => return Err(Bail),
            "effect" | "effects" => {
                effects = Some(items(cur, v, |_, _, t| component_ref(t))?.into());
            }
            "key" => key = intent_key(cur, v, names)?,
            "fingerprint" => fingerprint = Some(name_list(cur, v, names)?),
            "replays" => replays = items(cur, v, |cur, i, t| replay(cur, t, i))?,
            "tested" => tested = Some(name_list(cur, v, names)?),
            "description" => description = Some(string(v)?.value),
            _ => return Err(Bail),
        }
        Ok(())
    })?;
    Ok(Intent {
        id: id.value.into(),
        loc: id.loc,
        description,
        origin: origin.ok_or(Bail)?,
        effects: effects.ok_or(Bail)?,
        key,
        fingerprint,
        replays: replays.into(),
        tested,
    })
}

fn intent_key<'t>(cur: &mut Cursor<'_, 't>, token: Token<'t>, names: &mut Names) -> Read<Key> {
    let mut k = Key::default();
    let loc = map(cur, token, KEY_FIELDS, |cur, name, v| {
        match name {
            "fields" => k.fields = Some(name_list(cur, v, names)?),
            "minted_at" => k.minted_at = Some(component_ref(v)?),
            "minted" => k.minted = Some(choice(v)?),
            "persisted_before_retry" => k.persisted_before_retry = Some(boolean(v)?),
            "business_assigned" => k.business_assigned = Some(name_list(cur, v, names)?),
            _ => return Err(Bail),
        }
        Ok(())
    })?;
    k.loc = Some(loc);
    Ok(k)
}

fn replay<'t>(cur: &mut Cursor<'_, 't>, token: Token<'t>, i: usize) -> Read<Replay> {
    let (mut name, mut enters_at, mut within) = (None, None, None);
    let loc = map(cur, token, REPLAY_FIELDS, |_, field, v| {
        match field {
            "name" => name = Some(string(v)?.value),
            "enters_at" => enters_at = Some(component_ref(v)?),
            "within" => within = Some(duration(v, true)?),
            _ => return Err(Bail),
        }
        Ok(())
    })?;
    Ok(Replay {
        name: name.unwrap_or_else(|| format!("replay {}", i + 1)),
        loc,
        enters_at: enters_at.ok_or(Bail)?,
        within: within.ok_or(Bail)?,
    })
}

/// The settings read, in the order of `F::ALL` (the tree reader's).
pub(super) fn in_order<F: SettingField>(mut read: Vec<(F, Setting)>) -> Settings<F> {
    read.sort_by_key(|(f, _)| F::ALL.iter().position(|g| g == f));
    read.into_iter().collect()
}
