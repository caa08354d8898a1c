//! The blending page's link: `blending?twist=3.14&mode=lbs&falloff=smooth&...`.

use super::{BlendingPage, Mode};
use crate::link::{Link, LinkError, number};
use crate::skin::arm::{self, Falloff};
use std::f32::consts::TAU;

/// Reads every key first, then changes the page: all or nothing.
pub fn apply(page: &mut BlendingPage, link: &Link) -> Result<(), LinkError> {
    let slugs = |all: &[&'static str]| all.to_vec();
    let twist = link.f32("twist")?;
    let bend = link.f32("bend")?;
    let mode = link.choice("mode", &slugs(&Mode::ALL.map(Mode::slug)))?;
    let bone = link.index("bone", arm::BONE_COUNT)?;
    let falloff = link.choice("falloff", &slugs(&Falloff::ALL.map(Falloff::slug)))?;
    let width = link.f32("width")?;
    let vertex = link.index("vertex", page.arm.skin.positions.len())?;
    let antipodal = link.bool("antipodal_check")?;
    let negate = link.bool("negate_forearm")?;
    if let Some(width) = width
        && !(0.0..=arm::BONE_LENGTH).contains(&width)
    {
        return Err(link.bad("width", format!("a number from 0 to {}", arm::BONE_LENGTH)));
    }
    page.twist = twist.map_or(page.twist, |t| t.rem_euclid(TAU));
    page.bend = bend.map_or(page.bend, |b| b.clamp(-2.6, 2.6));
    page.mode = mode.map_or(page.mode, |m| Mode::ALL[m]);
    page.bone = bone.unwrap_or(page.bone);
    if falloff.is_some() || width.is_some() {
        let falloff = falloff.map_or(page.falloff, |f| Falloff::ALL[f]);
        page.use_falloff(falloff, width.unwrap_or(page.blend_width));
    }
    page.vertex = vertex.or(page.vertex);
    page.antipodal_check = antipodal.unwrap_or(page.antipodal_check);
    page.negate_forearm = negate.unwrap_or(page.negate_forearm);
    Ok(())
}

/// The link that reopens the page as it is: only what differs from the defaults.
/// Called every frame, so it compares with the default values rather than building a
/// default page (and its mesh).
pub fn write(page: &BlendingPage) -> Link {
    let mut link = Link::new(super::SLUG);
    if page.twist != 0.0 {
        link = link.with("twist", number(page.twist));
    }
    if page.bend != 0.0 {
        link = link.with("bend", number(page.bend));
    }
    if page.mode != Mode::Both {
        link = link.with("mode", page.mode.slug());
    }
    if page.bone != super::DEFAULT_BONE {
        link = link.with("bone", page.bone);
    }
    if page.falloff != super::DEFAULT_FALLOFF {
        link = link.with("falloff", page.falloff.slug());
    }
    if page.blend_width != arm::DEFAULT_BLEND_WIDTH {
        link = link.with("width", number(page.blend_width));
    }
    if let Some(vertex) = page.vertex {
        link = link.with("vertex", vertex);
    }
    if !page.antipodal_check {
        link = link.with("antipodal_check", false);
    }
    if page.negate_forearm {
        link = link.with("negate_forearm", true);
    }
    link
}
