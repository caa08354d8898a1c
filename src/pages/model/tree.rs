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

/// The tree's height before it scrolls, points.
const TREE_HEIGHT: f32 = 360.0;

/// The skeleton as a tree: each joint's children and depth.
struct Tree {
    children: Vec<Vec<usize>>,
    depth: Vec<usize>,
    roots: Vec<usize>,
    /// Joints shallower than this start open.
    open_depth: usize,
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
/// at most that deep) number at most [`OPEN_ROWS`], and at least one level.
fn open_depth(depth: &[usize]) -> usize {
    let deepest = depth.iter().copied().max().unwrap_or(0);
    let shown = |d: usize| depth.iter().filter(|x| **x <= d).count();
    let mut open = 1;
    while open < deepest && shown(open + 1) <= OPEN_ROWS {
        open += 1;
    }
    open
}

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
        egui::ScrollArea::vertical()
            .id_salt("joint tree")
            .max_height(TREE_HEIGHT)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for &root in &tree.roots {
                    self.tree_row_ui(ui, &model, &tree, root, 0);
                }
            });
    }

    /// Joint `j` and, when it has children, its fold holding them.
    fn tree_row_ui(&mut self, ui: &mut Ui, model: &Model, tree: &Tree, j: usize, nesting: usize) {
        let Some(joint) = model.joints.get(j) else {
            return;
        };
        let name = joint.name.clone();
        let Some(children) = tree.children.get(j) else {
            return;
        };
        if children.is_empty() || nesting >= MAX_NESTING {
            ui.horizontal_wrapped(|ui| {
                ui.add_space(ui.spacing().indent);
                self.tree_label_ui(ui, model, j, &name);
            });
            if !children.is_empty() {
                for d in tree.descendants(j) {
                    if let Some(joint) = model.joints.get(d) {
                        let name = joint.name.clone();
                        ui.horizontal_wrapped(|ui| {
                            ui.add_space(ui.spacing().indent);
                            self.tree_label_ui(ui, model, d, &name);
                        });
                    }
                }
            }
            return;
        }
        let mut state = CollapsingState::load_with_default_open(
            ui.ctx(),
            self.tree_node_id(j),
            tree.depth.get(j).is_some_and(|d| *d < tree.open_depth),
        );
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
        let open = state.is_open();
        state.show_body_indented(&header.response, ui, |ui| {
            for &child in children {
                self.tree_row_ui(ui, model, tree, child, nesting + 1);
            }
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
