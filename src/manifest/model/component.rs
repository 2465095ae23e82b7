//! A component's links, read by type from one sorted slice, its rare
//! fields, and the constructors the loaders set them with.

use super::*;

impl Component {
    /// A component with only its id and place; the loaders set the rest.
    pub fn new(id: impl Into<Name>, loc: Loc) -> Self {
        Component {
            id: id.into(),
            loc,
            ..Component::default()
        }
    }

    /// Every outgoing link, in a fixed order: by type as in
    /// [`LinkType::ALL`], then as written.
    pub fn links(&self) -> std::slice::Iter<'_, Link> {
        self.links.iter()
    }

    /// The links of type `ty`, as written.
    pub fn links_of(&self, ty: LinkType) -> &[Link] {
        let start = self.links.partition_point(|l| l.ty < ty);
        let end = start + self.links[start..].partition_point(|l| l.ty == ty);
        &self.links[start..end]
    }

    pub fn sends_to(&self) -> &[Link] {
        self.links_of(LinkType::SendsTo)
    }

    pub fn delivers_to(&self) -> &[Link] {
        self.links_of(LinkType::DeliversTo)
    }

    pub fn calls(&self) -> &[Link] {
        self.links_of(LinkType::Calls)
    }

    pub fn dead_letter(&self) -> Option<&Link> {
        self.links_of(LinkType::DeadLetter).first()
    }

    pub fn redrive(&self) -> Option<&Link> {
        self.links_of(LinkType::Redrive).first()
    }

    pub fn effects(&self) -> &[Link] {
        self.links_of(LinkType::Effects)
    }

    /// Sets the links read: those of each type in the order given, and of
    /// `dead_letter` and `redrive` the first only.
    pub fn set_links(&mut self, mut links: Vec<Link>) {
        links.sort_by_key(|l| l.ty);
        let mut single = [false; 2];
        links.retain(|l| {
            let seen = match l.ty {
                LinkType::DeadLetter => &mut single[0],
                LinkType::Redrive => &mut single[1],
                _ => return true,
            };
            !std::mem::replace(seen, true)
        });
        self.links = links.into_boxed_slice();
    }

    /// Every reference to another component: the links (in the order of
    /// [`Component::links`]), the guard's store and the stores a backup is
    /// restored with.
    pub fn refs_mut(&mut self) -> impl Iterator<Item = &mut Ref> {
        let Component {
            links,
            dedup,
            backup,
            ..
        } = self;
        links
            .iter_mut()
            .map(|l| &mut l.to)
            .chain(dedup.as_mut().map(|g| &mut g.store))
            .chain(
                backup
                    .as_mut()
                    .into_iter()
                    .flat_map(|b| b.restored_with.iter_mut()),
            )
    }

    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The mode written, else active-passive.
    pub fn mode(&self) -> Mode {
        self.mode.as_ref().map_or(Mode::ActivePassive, |m| m.value)
    }

    pub fn set_description(&mut self, description: Option<Box<str>>) {
        self.description = description;
    }

    pub fn set_mode(&mut self, mode: Option<Sp<Mode>>) {
        self.mode = mode;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(ty: LinkType, to: &str) -> Link {
        Link::new(
            ty,
            Loc::default(),
            Ref::new(Sp::new(to.into(), Loc::default())),
        )
    }

    #[test]
    fn links_are_read_by_type_in_the_order_written() {
        let mut c = Component::new("a", Loc::default());
        c.set_links(vec![
            link(LinkType::Effects, "e1"),
            link(LinkType::SendsTo, "s1"),
            link(LinkType::DeadLetter, "d1"),
            link(LinkType::Effects, "e2"),
            link(LinkType::DeadLetter, "d2"),
            link(LinkType::SendsTo, "s2"),
        ]);
        let ids = |ls: &[Link]| ls.iter().map(|l| l.to.value.clone()).collect::<Vec<_>>();
        assert_eq!(ids(c.sends_to()), ["s1", "s2"]);
        assert_eq!(ids(c.effects()), ["e1", "e2"]);
        assert!(c.calls().is_empty() && c.redrive().is_none());
        assert_eq!(c.dead_letter().map(|l| l.to.value.as_str()), Some("d1"));
        let all: Vec<_> = c.links().map(|l| l.to.value.as_str()).collect();
        assert_eq!(all, ["s1", "s2", "d1", "e1", "e2"]);
        assert_eq!(c.mode(), Mode::ActivePassive);
        assert_eq!(c.description(), None);
    }
}
