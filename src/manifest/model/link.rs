//! A component's links: the types of edge, a link's retry and its other
//! settings.

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LinkType {
    SendsTo,
    DeliversTo,
    Calls,
    DeadLetter,
    Redrive,
    Effects,
}

impl LinkType {
    /// Every kind of link, in the order of the component's fields.
    pub const ALL: [LinkType; 6] = [
        LinkType::SendsTo,
        LinkType::DeliversTo,
        LinkType::Calls,
        LinkType::DeadLetter,
        LinkType::Redrive,
        LinkType::Effects,
    ];

    pub fn field(self) -> &'static str {
        match self {
            LinkType::SendsTo => "sends_to",
            LinkType::DeliversTo => "delivers_to",
            LinkType::Calls => "calls",
            LinkType::DeadLetter => "dead_letter",
            LinkType::Redrive => "redrive",
            LinkType::Effects => "effects",
        }
    }

    /// Messages carry the request they were sent with; calls and effects
    /// pass the key only where declared (`passes_key`).
    pub fn passes_key_by_default(self) -> bool {
        !matches!(self, LinkType::Calls | LinkType::Effects)
    }
}

named! {
    DedupId {
        Key = "key",
        Content = "content",
        None = "none",
    }
}

named! {
    RedriveMode {
        Manual = "manual",
        Automatic = "automatic",
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Retry {
    pub loc: Loc,
    pub attempts: Option<Sp<u64>>,
    pub timeout: Option<Sp<Dur>>,
    pub backoff: Option<Sp<Dur>>,
    pub multiplier: Option<Sp<f64>>,
    pub max_backoff: Option<Sp<Dur>>,
    pub max_elapsed: Option<Sp<Dur>>,
}

/// An edge of the architecture, as written on its source component.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub ty: LinkType,
    pub loc: Loc,
    pub to: Ref,
    /// Boxed: few links write one, and inline a `Retry` (six optional
    /// values with their places) made every link about 200 bytes larger,
    /// which took `check`'s peak memory past 10x the file
    /// (docs/performance.md).
    pub retry: Option<Box<Retry>>,
    /// The other fields written on the link (`timeout`, `passes_key`,
    /// `within`, ...), read through the accessors below.
    settings: Settings<LinkField>,
}

setting_accessors!(Link, LinkField);

impl Link {
    pub fn new(ty: LinkType, loc: Loc, to: Ref) -> Self {
        Link {
            ty,
            loc,
            to,
            retry: None,
            settings: Settings::default(),
        }
    }

    /// Whether the key travels on this link: as written, else the link
    /// type's default; a start named by the key carries it as the
    /// execution name (`name_from_key`).
    pub fn passes_key(&self) -> bool {
        self.flag(LinkField::NameFromKey).is_some_and(|n| n.value)
            || self
                .flag(LinkField::PassesKey)
                .map_or(self.ty.passes_key_by_default(), |p| p.value)
    }
}

impl Link {
    /// Sets the settings read.
    pub fn set_settings(&mut self, s: Settings<LinkField>) {
        self.settings = s;
    }
}
