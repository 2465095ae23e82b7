//! Input limits: the largest file and deepest nesting accepted, and the
//! serde-saphyr budget that grows with the size of the file (the yaml
//! reader applies it; its errors name these numbers).

/// Input limits. The parser budget scales with the size of the input, so a
/// large honest manifest loads while a small file that expands (an alias
/// bomb) stops after a few thousand nodes.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest manifest file accepted, in bytes (`--max-file-size`).
    pub max_file_bytes: u64,
    /// Deepest nesting accepted. Manifests need about 8 levels.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 64 * 1024 * 1024,
            max_depth: 48,
        }
    }
}

/// The fixed part of the node budget: small files may use anchors freely.
pub const NODES_FLOOR: usize = 65_536;
/// serde-saphyr's fixed alias and anchor limits, kept as the floor of the
/// budget that grows with the file.
pub const ALIASES_FLOOR: usize = 50_000;
pub const ANCHORS_FLOOR: usize = 50_000;
/// Bytes of file per alias (or anchor) allowed beyond the floor: an alias
/// written in a manifest (`kind: *k` on a line of its own, `[*a, *b]`) takes
/// more, so honest files never reach it while a file of nothing but `*a,`
/// does.
pub const ALIAS_BYTES: usize = 8;
/// serde-saphyr's fixed merge-key limit, kept as the floor.
pub const MERGE_KEYS_FLOOR: usize = 10_000;
/// Bytes of file per merge key allowed beyond the floor (`<<: *defaults`
/// on a line of its own takes 20 or more).
pub const MERGE_KEY_BYTES: usize = 16;
/// serde-saphyr's fixed limits on copies kept for anchors, as the floor.
const RECORDED_EVENTS_FLOOR: usize = 1_000_000;
const RECORDED_BYTES_FLOOR: usize = 64 * 1024 * 1024;

impl Limits {
    /// The serde-saphyr budget for an input of `len` bytes.
    ///
    /// A YAML node takes at least two bytes of text, so `len` nodes cover any
    /// document without aliases; the fixed allowance lets small files use
    /// anchors freely. Beyond that, alias expansion is refused: the cost of
    /// loading stays linear in the size of the file. The counts serde-saphyr
    /// caps at fixed values (aliases, anchors, merge keys, anchor copies)
    /// grow with the file the same way, from those values as a floor, so a
    /// large honest manifest is never refused for its size alone. The
    /// alias-to-anchor ratio check is off: one `&defaults` used by every
    /// component is honest, and the node budget already bounds what aliases
    /// can expand to.
    pub fn budget(&self, len: usize) -> serde_saphyr::Budget {
        let mut b = serde_saphyr::Budget::default();
        b.max_depth = self.max_depth;
        b.max_nodes = NODES_FLOOR + len;
        b.max_events = 2 * (NODES_FLOOR + len);
        b.max_total_scalar_bytes = 2 * len + NODES_FLOOR;
        b.max_documents = 1;
        b.max_reader_input_bytes = Some(self.max_file_bytes as usize);
        b.max_aliases = ALIASES_FLOOR + len / ALIAS_BYTES;
        b.max_anchors = ANCHORS_FLOOR + len / ALIAS_BYTES;
        b.max_merge_keys = MERGE_KEYS_FLOOR + len / MERGE_KEY_BYTES;
        b.max_recorded_anchor_events = RECORDED_EVENTS_FLOOR + 2 * len;
        b.max_recorded_anchor_bytes = RECORDED_BYTES_FLOOR + 2 * len;
        b.enforce_alias_anchor_ratio = false;
        b
    }
}
