//! The layered layout of the view behind the SVG drawing (see the
//! parent module for the steps).

use std::collections::{BTreeMap, BTreeSet};

use super::{Node, View};

pub(super) const NODE_H: f64 = 46.0;
const LAYER_GAP: f64 = 96.0;
pub(super) const NODE_GAP: f64 = 40.0;
const CLUSTER_GAP: f64 = 24.0;
pub(super) const MARGIN: f64 = 24.0;
const DUMMY_W: f64 = 12.0;

/// A laid-out drawing: boxes of the components, polylines of the edges.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Centre x, centre y, width of each component (height is fixed).
    pub boxes: Vec<(f64, f64, f64)>,
    /// Points of each edge of the view, from its source to its target.
    pub routes: Vec<Vec<(f64, f64)>>,
    /// Layer of each component (0 at the top).
    pub layers: Vec<usize>,
    /// Where along its route each edge's label sits (0 source, 1 target);
    /// parallel edges get different heights.
    pub label_at: Vec<f64>,
    pub width: f64,
    pub height: f64,
}

fn node_width(n: &Node) -> f64 {
    let chars =
        n.id.chars()
            .count()
            .max(n.kind.chars().count() * 85 / 100)
            .max(6);
    (chars as f64) * 7.8 + 26.0
}

/// Cycle breaking by DFS: edges that close a cycle are reversed.
fn reversed_edges(n: usize, pairs: &[(usize, usize)]) -> Vec<bool> {
    let mut out_adj = vec![Vec::new(); n];
    let mut indeg = vec![0usize; n];
    for (k, &(a, b)) in pairs.iter().enumerate() {
        out_adj[a].push(k);
        indeg[b] += 1;
    }
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut rev = vec![false; pairs.len()];
    let roots: Vec<usize> = (0..n).filter(|&v| indeg[v] == 0).chain(0..n).collect();
    for root in roots {
        if state[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        state[root] = 1;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if *i < out_adj[v].len() {
                let k = out_adj[v][*i];
                *i += 1;
                let w = pairs[k].1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => rev[k] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    rev
}

/// Edge crossings between adjacent layers (quadratic per layer pair, so
/// only counted for drawings small enough to read; `None` above that).
fn crossings(order: &[Vec<usize>], pos: &[usize], down: &[Vec<usize>]) -> Option<usize> {
    if down.iter().map(Vec::len).sum::<usize>() > 3000 {
        return None;
    }
    let mut total = 0;
    for layer in order {
        let mut segs: Vec<(usize, usize)> = Vec::new();
        for &v in layer {
            for &w in &down[v] {
                segs.push((pos[v], pos[w]));
            }
        }
        for i in 0..segs.len() {
            for j in i + 1..segs.len() {
                let (a, b) = (segs[i], segs[j]);
                if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) {
                    total += 1;
                }
            }
        }
    }
    Some(total)
}

/// The layered layout of a view (top to bottom).
pub fn layout(v: &View) -> Layout {
    let dag = acyclic(v);
    let g = vertices(v, &dag);
    let order = ordered(&g);
    let xs = coordinates(v, &g, &order);
    let total = g.vlayer.len();
    let depth = g.depth;
    let ys: Vec<f64> = g
        .vlayer
        .iter()
        .map(|&l| MARGIN + 22.0 + l as f64 * (NODE_H + LAYER_GAP) + NODE_H / 2.0)
        .collect();
    let width = (0..total)
        .map(|x| xs[x] + g.width(v, x) / 2.0)
        .fold(0.0, f64::max)
        + MARGIN
        + CLUSTER_GAP;
    let height = MARGIN * 2.0
        + 22.0
        + depth as f64 * NODE_H
        + depth.saturating_sub(1) as f64 * LAYER_GAP
        + 16.0;
    let (routes, label_at) = routes(v, &g, &xs, &ys);
    let n = g.n;
    Layout {
        boxes: (0..n).map(|x| (xs[x], ys[x], g.width(v, x))).collect(),
        routes,
        layers: g.layer,
        label_at,
        width,
        height,
    }
}

/// The links between distinct components, once each, with the DFS back
/// edges reversed so that the rest is acyclic.
fn acyclic(v: &View) -> BTreeSet<(usize, usize)> {
    let n = v.nodes.len();
    let mut pairs: Vec<(usize, usize)> = v
        .edges
        .iter()
        .map(|e| (e.from, e.to))
        .filter(|(a, b)| a != b)
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let rev = reversed_edges(n, &pairs);
    pairs
        .iter()
        .zip(&rev)
        .map(|(&(a, b), &r)| if r { (b, a) } else { (a, b) })
        .collect()
}

/// Longest-path layering (Kahn's order over the acyclic edges).
fn layers(n: usize, dag: &BTreeSet<(usize, usize)>) -> Vec<usize> {
    let mut indeg = vec![0usize; n];
    let mut succ = vec![Vec::new(); n];
    for &(a, b) in dag {
        if a != b {
            succ[a].push(b);
            indeg[b] += 1;
        }
    }
    let mut layer = vec![0usize; n];
    let mut queue: std::collections::VecDeque<usize> = (0..n).filter(|&x| indeg[x] == 0).collect();
    while let Some(x) = queue.pop_front() {
        for &y in &succ[x] {
            layer[y] = layer[y].max(layer[x] + 1);
            indeg[y] -= 1;
            if indeg[y] == 0 {
                queue.push_back(y);
            }
        }
    }
    layer
}

/// The layered graph: the components (vertices below `n`), then dummy
/// vertices on the links that span several layers.
struct Layered {
    n: usize,
    /// Layer of each component.
    layer: Vec<usize>,
    /// Layer of each vertex.
    vlayer: Vec<usize>,
    /// Region (cluster index) of each vertex.
    group: Vec<Option<usize>>,
    /// The vertices each acyclic link passes through, ends included.
    chains: BTreeMap<(usize, usize), Vec<usize>>,
    down: Vec<Vec<usize>>,
    up: Vec<Vec<usize>>,
    depth: usize,
}

impl Layered {
    fn width(&self, v: &View, x: usize) -> f64 {
        if x < self.n {
            node_width(&v.nodes[x])
        } else {
            DUMMY_W
        }
    }

    /// The space between neighbours `a` and `b` of a layer: wider between regions.
    fn gap(&self, a: usize, b: usize) -> f64 {
        let (n, group) = (self.n, &self.group);
        if a < n && b < n && group[a] != group[b] && (group[a].is_some() || group[b].is_some()) {
            NODE_GAP + CLUSTER_GAP
        } else {
            NODE_GAP
        }
    }
}

/// Vertices: components, then dummies on edges that span several layers.
fn vertices(v: &View, dag: &BTreeSet<(usize, usize)>) -> Layered {
    let n = v.nodes.len();
    let layer = layers(n, dag);
    let mut vlayer = layer.clone();
    let mut group: Vec<Option<usize>> = v
        .nodes
        .iter()
        .map(|nd| {
            nd.cluster
                .as_ref()
                .and_then(|c| v.clusters.iter().position(|x| x == c))
        })
        .collect();
    let mut chains: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in dag {
        let mut chain = vec![a];
        let mut prev = a;
        for l in layer[a] + 1..layer[b] {
            let d = vlayer.len();
            vlayer.push(l);
            group.push(None);
            down.push(Vec::new());
            down[prev].push(d);
            chain.push(d);
            prev = d;
        }
        down[prev].push(b);
        chain.push(b);
        chains.insert((a, b), chain);
    }
    let total = vlayer.len();
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); total];
    for (x, ws) in down.iter().enumerate() {
        for &w in ws {
            up[w].push(x);
        }
    }
    let depth = vlayer.iter().copied().max().map_or(0, |m| m + 1);
    Layered {
        n,
        layer,
        vlayer,
        group,
        chains,
        down,
        up,
        depth,
    }
}

fn index(order: &[Vec<usize>], pos: &mut [usize]) {
    for l in order {
        for (i, &x) in l.iter().enumerate() {
            pos[x] = i;
        }
    }
}

/// The vertices of each layer, left to right: regions together, then
/// barycentre sweeps, keeping the order with the fewest crossings.
fn ordered(g: &Layered) -> Vec<Vec<usize>> {
    let (total, depth) = (g.vlayer.len(), g.depth);
    let mut order: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for x in 0..total {
        order[g.vlayer[x]].push(x);
    }
    // Start with regions together.
    for l in &mut order {
        l.sort_by_key(|&x| (g.group[x].unwrap_or(usize::MAX), x));
    }
    let mut pos = vec![0usize; total];
    index(&order, &mut pos);
    let mut best = (crossings(&order, &pos, &g.down), order.clone());
    for sweep in 0..12 {
        let downward = sweep % 2 == 0;
        let layers: Vec<usize> = if downward {
            (1..depth).collect()
        } else {
            (0..depth.saturating_sub(1)).rev().collect()
        };
        for li in layers {
            order[li] = barycentre_order(g, &order[li], &pos, downward);
            index(&order, &mut pos);
        }
        let c = crossings(&order, &pos, &g.down);
        if c.is_none() || c < best.0 {
            best = (c, order.clone());
        }
    }
    best.1
}

/// One layer sorted by the mean position of its neighbours in the layer
/// above (`downward`) or below.
fn barycentre_order(g: &Layered, layer: &[usize], pos: &[usize], downward: bool) -> Vec<usize> {
    let bary: Vec<(usize, f64)> = layer
        .iter()
        .map(|&x| {
            let ns = if downward { &g.up[x] } else { &g.down[x] };
            let b = if ns.is_empty() {
                pos[x] as f64
            } else {
                ns.iter().map(|&w| pos[w] as f64).sum::<f64>() / ns.len() as f64
            };
            (x, b)
        })
        .collect();
    // A region's members move together: sort by the group's mean first.
    let mut gsum: BTreeMap<usize, (f64, usize)> = BTreeMap::new();
    for &(x, b) in &bary {
        if let Some(gr) = g.group[x] {
            let e = gsum.entry(gr).or_insert((0.0, 0));
            e.0 += b;
            e.1 += 1;
        }
    }
    let mut keyed: Vec<(f64, f64, usize, usize)> = bary
        .iter()
        .map(|&(x, b)| {
            let gk = g.group[x].map_or(b, |gr| gsum[&gr].0 / gsum[&gr].1 as f64);
            (gk, b, pos[x], x)
        })
        .collect();
    keyed.sort_by(|p, q| p.partial_cmp(q).unwrap_or(std::cmp::Ordering::Equal));
    keyed.into_iter().map(|k| k.3).collect()
}

/// Places one layer left to right at the wanted centres, never
/// overlapping, then shifts it to sit on them on average.
fn place(v: &View, g: &Layered, l: &[usize], want: &[f64], xs: &mut [f64]) {
    let mut prev: Option<usize> = None;
    for &x in l {
        let mut c = want[x];
        if let Some(p) = prev {
            let min = xs[p] + g.width(v, p) / 2.0 + g.gap(p, x) + g.width(v, x) / 2.0;
            c = c.max(min);
        }
        xs[x] = c;
        prev = Some(x);
    }
    if !l.is_empty() {
        let shift = l.iter().map(|&x| want[x] - xs[x]).sum::<f64>() / l.len() as f64;
        for &x in l {
            xs[x] += shift;
        }
    }
}

/// Centre x of each vertex: compact placement, then pulled towards the
/// neighbours, then moved inside the margin.
fn coordinates(v: &View, g: &Layered, order: &[Vec<usize>]) -> Vec<f64> {
    let (total, depth) = (g.vlayer.len(), g.depth);
    let mut xs = vec![0.0f64; total];
    let zero = vec![0.0f64; total];
    for l in order {
        place(v, g, l, &zero, &mut xs);
    }
    let mut want = vec![0.0f64; total];
    for sweep in 0..8 {
        let downward = sweep % 2 == 0;
        let layers: Vec<usize> = if downward {
            (1..depth).collect()
        } else {
            (0..depth.saturating_sub(1)).rev().collect()
        };
        for li in layers {
            // Only this layer's entries of `want` are read: set just those
            // (a copy of every x per layer made deep drawings quadratic).
            for &x in &order[li] {
                let ns = if downward { &g.up[x] } else { &g.down[x] };
                want[x] = if ns.is_empty() {
                    xs[x]
                } else {
                    ns.iter().map(|&w| xs[w]).sum::<f64>() / ns.len() as f64
                };
            }
            place(v, g, &order[li], &want, &mut xs);
        }
    }
    let min_left = (0..total)
        .map(|x| xs[x] - g.width(v, x) / 2.0)
        .fold(f64::INFINITY, f64::min);
    let offset = if min_left.is_finite() {
        MARGIN + CLUSTER_GAP - min_left
    } else {
        MARGIN
    };
    for x in &mut xs {
        *x += offset;
    }
    xs
}

type Routes = (Vec<Vec<(f64, f64)>>, Vec<f64>);

/// Each edge's points (through the dummies, parallel edges side by side)
/// and where along it its label sits.
fn routes(v: &View, g: &Layered, xs: &[f64], ys: &[f64]) -> Routes {
    let mut between: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (k, e) in v.edges.iter().enumerate() {
        between
            .entry((e.from.min(e.to), e.from.max(e.to)))
            .or_default()
            .push(k);
    }
    let mut routes = vec![Vec::new(); v.edges.len()];
    let mut label_at = vec![0.5; v.edges.len()];
    for (k, e) in v.edges.iter().enumerate() {
        let (a, b) = (e.from, e.to);
        if a == b {
            let (x, y, w) = (xs[a], ys[a], g.width(v, a));
            routes[k] = vec![
                (x + w / 2.0, y - 8.0),
                (x + w / 2.0 + 26.0, y),
                (x + w / 2.0, y + 8.0),
            ];
            continue;
        }
        let same = &between[&(a.min(b), a.max(b))];
        let idx = same.iter().position(|&s| s == k).unwrap_or(0) as f64;
        let shift = (idx - (same.len() as f64 - 1.0) / 2.0) * 18.0;
        // Fraction from the upper end, turned into one from the source.
        let from_top = (idx + 1.0) / (same.len() as f64 + 1.0);
        label_at[k] = if ys[a] <= ys[b] {
            from_top
        } else {
            1.0 - from_top
        };
        let chain = g.chains.get(&(a, b)).cloned().or_else(|| {
            g.chains
                .get(&(b, a))
                .map(|c| c.iter().rev().copied().collect())
        });
        let chain = chain.unwrap_or_else(|| vec![a, b]);
        routes[k] = chain_points(&chain, xs, ys, shift);
    }
    (routes, label_at)
}

/// The points of a route along `chain`, shifted sideways by `shift`; the
/// ends on the boxes' top or bottom edges.
fn chain_points(chain: &[usize], xs: &[f64], ys: &[f64], shift: f64) -> Vec<(f64, f64)> {
    let mut pts = Vec::new();
    for (i, &x) in chain.iter().enumerate() {
        let (cx, cy) = (xs[x] + shift, ys[x]);
        if i == 0 || i == chain.len() - 1 {
            let other = if i == 0 { chain[1] } else { chain[i - 1] };
            let dir = if ys[other] > cy {
                1.0
            } else if ys[other] < cy {
                -1.0
            } else {
                0.0
            };
            pts.push((cx, cy + dir * NODE_H / 2.0));
        } else {
            pts.push((cx, cy));
        }
    }
    pts
}
