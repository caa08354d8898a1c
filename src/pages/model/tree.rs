//! The model page's joint tree: every joint under its parent, each parent folding its
//! children away. A joint picked elsewhere (the viewport, a link) opens its ancestors
//! and is scrolled into view once.

use super::ModelPage;
use egui::collapsing_header::CollapsingState;
use egui::{Align, Id, Ui};
use gltf::Model;
use skin::Skeleton;

/// How many rows the tree shows at most when it first opens: it opens as many levels
/// as fit.
const OPEN_ROWS: usize = 25;

/// Nesting past this many levels is listed flat (only a pathological file goes so deep).
const MAX_NESTING: usize = 40;

/// The most rows the tree lists: past ten thousand, a list is for a search, not for
/// scrolling, and a scroll of several million points is past what `f32` places to the
/// point. The rest are picked in the viewport or by a link.
pub const MAX_TREE_ROWS: usize = 10_000;

/// The tree's height before it scrolls, points.
const TREE_HEIGHT: f32 = 360.0;

/// The skeleton as a tree: each joint's children and depth.
struct Tree {
    children: Vec<Vec<usize>>,
    depth: Vec<usize>,
    roots: Vec<usize>,
    /// Joints shallower than this start open.
    open_depth: usize,
    /// How many more rows the tree may list this frame (of [`MAX_TREE_ROWS`]).
    left: std::cell::Cell<usize>,
}

impl Tree {
    fn new(skeleton: &Skeleton) -> Self {
        let n = skeleton.len();
        let mut children = vec![Vec::new(); n];
        let mut depth = vec![0; n];
        let mut roots = Vec::new();
        // Parents come before their children, so a parent's depth is known first.
        for j in 0..n {
            match skeleton.parent(j).filter(|p| *p < j) {
                Some(p) => {
                    children[p].push(j);
                    depth[j] = depth[p] + 1;
                }
                None => roots.push(j),
            }
        }
        let open_depth = open_depth(&depth);
        Self {
            children,
            depth,
            roots,
            open_depth,
            left: std::cell::Cell::new(MAX_TREE_ROWS),
        }
    }

    /// Every joint below `joint`, parents before children.
    fn descendants(&self, joint: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack: Vec<usize> = self.children[joint].iter().rev().copied().collect();
        while let Some(j) = stack.pop() {
            out.push(j);
            stack.extend(self.children[j].iter().rev());
        }
        out
    }
}

/// How many levels open by default: the most for which the rows then showing (joints
/// at most that deep) number at most [`OPEN_ROWS`], and at least one level; but a
/// file whose top is a chain (a scene root, a node, an armature) opens until
/// [`LEAST_ROWS`] rows show, even past [`OPEN_ROWS`] (the tree scrolls): three
/// closed rows hide the skeleton.
fn open_depth(depth: &[usize]) -> usize {
    let deepest = depth.iter().copied().max().unwrap_or(0);
    let shown = |d: usize| depth.iter().filter(|x| **x <= d).count();
    let mut open = 1;
    while open < deepest && shown(open + 1) <= OPEN_ROWS {
        open += 1;
    }
    while open < deepest && shown(open) < LEAST_ROWS {
        open += 1;
    }
    open
}

/// The fewest rows the tree opens with, where the file has them.
const LEAST_ROWS: usize = 8;

impl ModelPage {
    /// The id of joint `joint`'s fold in the tree, per model.
    fn tree_node_id(&self, joint: usize) -> Id {
        Id::unique((
            "model joint tree",
            crate::link::Named::slug(self.asset),
            joint,
        ))
    }

    pub(super) fn skeleton_ui(&mut self, ui: &mut Ui) {
        crate::ui::checkbox_ui(
            ui,
            &mut self.show_skeleton,
            "draw the skeleton over the model",
        );
        let model = self.model.clone();
        let tree = Tree::new(&model.skeleton);
        if self.joint != self.tree_pick {
            // Picked elsewhere: open the way down to it, then bring it into view.
            self.tree_pick = self.joint;
            self.tree_scroll = false;
            if let Some(j) = self.joint.filter(|j| *j < model.joints.len()) {
                let ctx = ui.ctx().clone();
                let path = model.skeleton.path_from_root(j);
                for &a in path.iter().take(path.len().saturating_sub(1)) {
                    let mut state = CollapsingState::load_with_default_open(
                        &ctx,
                        self.tree_node_id(a),
                        tree.depth.get(a).is_some_and(|d| *d < tree.open_depth),
                    );
                    state.set_open(true);
                    state.store(&ctx);
                }
                self.tree_scroll = true;
            }
        }
        let guessed = row_height(ui);
        egui::ScrollArea::vertical()
            .id_salt("joint tree")
            .max_height(TREE_HEIGHT)
            // A tree that scrolls shows a good part of itself, not three rows.
            .min_scrolled_height(TREE_HEIGHT * 0.75)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                self.rows_ui(ui, &model, &tree, &tree.roots, 0, false);
            });
        if tree.left.get() == 0 && model.joints.len() > MAX_TREE_ROWS {
            // Only a file of thousands of nodes comes here; its picked joint may lie
            // past the list, and is shown in the cells below.
            self.tree_scroll = false;
            ui.label(format!(
                "The tree lists the first {MAX_TREE_ROWS} of {} nodes. Pick another in the \
                 view, or name it in a link (joint=its name).",
                model.joints.len()
            ));
        }
        if row_height(ui) != guessed && self.joint.is_some() {
            // The rows out of view took a guessed height, and the rows drawn have now
            // corrected it: the picked row moved, so aim at it again.
            self.tree_scroll = true;
        }
    }

    /// `rows` one under another: siblings, each with its fold, or with `flat` a list
    /// without folds. A run of rows without children that lies out of view takes its
    /// height in one step, so a hundred thousand rows cost a screenful of widgets a
    /// frame, and their places do not drift apart as a hundred thousand small steps
    /// would in `f32`.
    fn rows_ui(
        &mut self,
        ui: &mut Ui,
        model: &Model,
        tree: &Tree,
        rows: &[usize],
        nesting: usize,
        flat: bool,
    ) {
        let leaf = |j: usize| flat || tree.children.get(j).is_none_or(Vec::is_empty);
        let waiting = self.joint.filter(|_| self.tree_scroll);
        let mut i = 0;
        while let Some(&j) = rows.get(i) {
            let left = tree.left.get();
            if left == 0 {
                return;
            }
            if !leaf(j) {
                tree.left.set(left - 1);
                self.tree_row_ui(ui, model, tree, j, nesting);
                i += 1;
                continue;
            }
            if waiting == Some(j) {
                tree.left.set(left - 1);
                self.leaf_row_ui(ui, model, j);
                i += 1;
                continue;
            }
            let run = rows[i..]
                .iter()
                .take(left)
                .take_while(|&&r| leaf(r) && waiting != Some(r))
                .count();
            tree.left.set(left - run);
            let end = i + run;
            let step = row_height(ui) + ui.spacing().item_spacing.y;
            let view = ui.clip_rect();
            let above = ((view.top() - ui.cursor().min.y) / step).floor().max(0.0) as usize;
            i += skip_rows(ui, above.min(end - i), step);
            while i < end && ui.cursor().min.y <= view.bottom() {
                self.leaf_row_ui(ui, model, rows[i]);
                i += 1;
            }
            i += skip_rows(ui, end - i, step);
        }
    }

    /// Joint `j` and, when it has children, its fold holding them.
    fn tree_row_ui(&mut self, ui: &mut Ui, model: &Model, tree: &Tree, j: usize, nesting: usize) {
        let Some(children) = tree.children.get(j) else {
            return;
        };
        if children.is_empty() {
            self.leaf_row_ui(ui, model, j);
            return;
        }
        if nesting >= MAX_NESTING {
            let mut flat = vec![j];
            flat.extend(tree.descendants(j));
            // The row was counted by the caller; the flat list counts it again.
            tree.left.set(tree.left.get() + 1);
            self.rows_ui(ui, model, tree, &flat, nesting, true);
            return;
        }
        let mut state = CollapsingState::load_with_default_open(
            ui.ctx(),
            self.tree_node_id(j),
            tree.depth.get(j).is_some_and(|d| *d < tree.open_depth),
        );
        if let Some(height) = self.row_out_of_view(ui, j) {
            // Out of view: its place, and its children's if open, but no widgets.
            let (_, space) = ui.allocate_exact_size(egui::vec2(0.0, height), egui::Sense::hover());
            state.show_body_indented(&space, ui, |ui| {
                self.rows_ui(ui, model, tree, children, nesting + 1, false);
            });
            return;
        }
        let Some(name) = model.joints.get(j).map(|joint| joint.name.clone()) else {
            return;
        };
        let header = ui.horizontal_wrapped(|ui| {
            // The fold's toggle, as high as a control: egui's own is an icon high, too
            // small for a finger on a touch screen.
            let spacing = ui.spacing();
            let size = egui::vec2(
                spacing.indent,
                spacing.interact_size.y.max(spacing.icon_width),
            );
            let (rect, toggle) = ui.allocate_exact_size(size, egui::Sense::click());
            if toggle.clicked() {
                state.toggle(ui);
            }
            let mut icon = toggle.clone();
            icon.rect = egui::Rect::from_center_size(
                rect.center(),
                egui::Vec2::splat(ui.spacing().icon_width),
            );
            egui::collapsing_header::paint_default_icon(ui, state.openness(ui.ctx()), &icon);
            self.tree_label_ui(ui, model, j, &name);
            toggle
        });
        remember_row_height(ui, &header.response);
        let open = state.is_open();
        state.show_body_indented(&header.response, ui, |ui| {
            self.rows_ui(ui, model, tree, children, nesting + 1, false);
        });
        header.inner.widget_info(|| {
            let action = if open {
                "hide children"
            } else {
                "show children"
            };
            egui::WidgetInfo::labeled(
                egui::accesskit::Role::Button,
                true,
                format!("{name}: {action}"),
            )
        });
    }

    /// A joint with no fold: its name, a fold's width in.
    fn leaf_row_ui(&mut self, ui: &mut Ui, model: &Model, j: usize) {
        if let Some(height) = self.row_out_of_view(ui, j) {
            ui.allocate_space(egui::vec2(0.0, height));
            return;
        }
        if let Some(joint) = model.joints.get(j) {
            let name = joint.name.clone();
            let row = ui.horizontal_wrapped(|ui| {
                ui.add_space(ui.spacing().indent);
                self.tree_label_ui(ui, model, j, &name);
            });
            remember_row_height(ui, &row.response);
        }
    }

    /// When joint `j`'s row would be out of the tree's view (and it is not the picked
    /// joint waiting to be scrolled to), the height the caller takes in its place: the
    /// tree lays out only the rows a reader sees, so a file of a hundred thousand
    /// joints costs a screenful of widgets a frame, not a hundred thousand.
    fn row_out_of_view(&self, ui: &Ui, j: usize) -> Option<f32> {
        let height = row_height(ui);
        let row = egui::Rect::from_min_size(ui.cursor().min, egui::vec2(1.0, height));
        let waiting = self.tree_scroll && self.joint == Some(j);
        if waiting || ui.is_rect_visible(row) {
            return None;
        }
        Some(height)
    }

    /// A joint's name in the tree: a click picks it; the picked one is highlighted, and
    /// scrolled to when it was picked elsewhere.
    fn tree_label_ui(&mut self, ui: &mut Ui, model: &Model, j: usize, name: &str) {
        let picked = self.joint == Some(j);
        let response = ui.selectable_label(picked, name);
        if response.clicked() {
            self.joint = Some(j);
            self.tree_pick = Some(j);
            self.tree_scroll = false;
        } else if picked && self.tree_scroll {
            response.scroll_to_me(Some(Align::Center));
            // Ancestors just opened still grow for a few frames: aim again until they
            // are fully open.
            let ctx = ui.ctx();
            let path = model.skeleton.path_from_root(j);
            let settled = path.iter().take(path.len().saturating_sub(1)).all(|&a| {
                CollapsingState::load(ctx, self.tree_node_id(a))
                    .is_none_or(|s| s.openness(ctx) >= 1.0)
            });
            if settled {
                self.tree_scroll = false;
            }
        }
    }
}

/// Where the tree keeps the height of a row as last drawn.
fn row_height_id() -> Id {
    Id::unique("model joint tree row height")
}

/// The height of a row as last drawn, or a control's height before any is.
fn row_height(ui: &Ui) -> f32 {
    ui.data(|d| d.get_temp::<f32>(row_height_id()))
        .unwrap_or(ui.spacing().interact_size.y)
}

/// Keeps a drawn row's height: the height the rows out of view take.
fn remember_row_height(ui: &Ui, row: &egui::Response) {
    let height = row.rect.height();
    ui.data_mut(|d| d.insert_temp(row_height_id(), height));
}

/// Takes the place of `count` rows, `step` apart, in one step; returns `count`.
fn skip_rows(ui: &mut Ui, count: usize, step: f32) -> usize {
    if count > 0 {
        let height = count as f32 * step - ui.spacing().item_spacing.y;
        ui.allocate_space(egui::vec2(0.0, height));
    }
    count
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_chain_at_the_top_opens_until_the_skeleton_shows() {
        // Three single joints, then thirty siblings: the siblings show.
        let chain: Vec<usize> = [0, 1, 2].into_iter().chain([3; 30]).collect();
        assert_eq!(super::open_depth(&chain), 3);
        // A small tree opens whole, as before.
        assert_eq!(super::open_depth(&[0, 1, 1, 2, 2, 3]), 3);
    }
}
