//! One module per lesson page, and the registry of pages in lesson order.
//!
//! Adding a page: its module here, its line in [`PAGES`], and its chapter file
//! `chapters/<slug>.md` (see ARCHITECTURE.md, "A page template").

use crate::page::{Moved, PageEntry};

mod registry;
pub use registry::{page_for_file, params_table, registry, resolve, slugs};

pub mod binding;
pub mod blending;
pub mod centres;
pub mod gpu;
pub mod gradient;
pub mod grid;
pub mod hierarchy;
pub mod interpolation;
pub mod joint_link;
pub mod keyframes;
pub mod local_transform;
pub mod model;
pub mod normals;
pub mod pipeline;
pub mod predict;
pub mod quaternions;
pub mod shapes;
pub mod xray;

/// How far a number typed, dragged or linked on a page may go: the views show a few
/// units, so past this the picture says nothing more, and products of such numbers
/// would overflow.
pub const LIMIT: f32 = 100.0;

/// Every page, in lesson order: the page list, `--list-pages`, links, the book and the
/// tests all read this.
pub static PAGES: &[PageEntry] = &[
    PageEntry::of::<pipeline::PipelinePage>(),
    PageEntry::of::<xray::XrayPage>(),
    PageEntry::of::<hierarchy::HierarchyPage>(),
    PageEntry::of::<gradient::GradientPage>(),
    PageEntry::of::<binding::BindingPage>(),
    PageEntry::of::<grid::GridPage>(),
    PageEntry::of::<quaternions::QuaternionsPage>(),
    PageEntry::of::<interpolation::InterpolationPage>(),
    PageEntry::of::<keyframes::KeyframesPage>(),
    PageEntry::of::<blending::BlendingPage>(),
    PageEntry::of::<centres::CentresPage>(),
    PageEntry::of::<normals::NormalsPage>(),
    PageEntry::of::<shapes::ShapesPage>(),
    PageEntry::of::<gpu::GpuPage>(),
    PageEntry::of::<model::ModelPage>(),
];

/// Link keys that moved to another page. A link written before the move still opens
/// what it showed: see [`crate::pages::resolve`].
pub static MOVED: &[Moved] = &[
    Moved {
        from: "quaternions",
        to: "keyframes",
        keys: &["time", "play", "speed", "joint"],
        shows: &[("show", "keyframes")],
    },
    Moved {
        from: "quaternions",
        to: "interpolation",
        keys: &[
            "b", "method", "t", "flip", "shortest", "circle", "predict", "guess", "reveal",
        ],
        shows: &[("show", "interpolate")],
    },
];
