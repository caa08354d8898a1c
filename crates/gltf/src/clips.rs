//! Animations as clips. A broken animation is left out with a warning naming it: the
//! model and its other clips still load.

use super::accessor::{self, FLOAT, NORMALIZED};
use super::container::Buffers;
use super::document::{self, Dimensions, Document, Property};
use super::nodes::Hierarchy;
use super::{ModelError, quoted};
use glam::{Quat, Vec3};
use skin::clip::{Channel, Clip, Interpolation, Values};

/// Every animation that reads cleanly, as a clip over the hierarchy's joints.
pub(super) fn clips(
    document: &Document,
    buffers: &Buffers,
    hierarchy: &Hierarchy,
    warnings: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Vec<Clip> {
    let mut out = Vec::new();
    let (mut morph_channels, mut morph_clips) = (0usize, 0usize);
    for animation in &document.animations {
        let index = animation.index;
        let given = animation.name.as_deref().filter(|s| !s.is_empty());
        let name = given.map_or_else(|| format!("animation {index}"), str::to_owned);
        let label = match given {
            Some(n) => format!("animation {index} {}", quoted(n)),
            None => format!("animation {index}"),
        };
        let morphs = animation
            .channels
            .iter()
            .filter(|c| c.property == Property::MorphTargetWeights)
            .count();
        if morphs > 0 {
            morph_channels += morphs;
            morph_clips += 1;
        }
        if let Some(reason) = &animation.broken {
            warnings.push(format!("{label} was left out: {reason}"));
            continue;
        }
        match clip(buffers, animation, &name, hierarchy) {
            Ok(clip) => out.push(clip),
            Err(e) => warnings.push(format!("{label} was left out: {e}")),
        }
    }
    if morph_channels > 0 {
        notes.push(format!(
            "{morph_clips} {} {morph_channels} morph-weight channels in all; morphing is not \
             applied, so they are ignored",
            if morph_clips == 1 {
                "animation has"
            } else {
                "animations have"
            }
        ));
    }
    out
}

fn clip(
    buffers: &Buffers,
    animation: &document::Animation,
    name: &str,
    hierarchy: &Hierarchy,
) -> Result<Clip, ModelError> {
    let mut channels = Vec::new();
    // The glTF channel index of each clip channel, for messages.
    let mut source = Vec::new();
    for channel in &animation.channels {
        let property = channel.property;
        if property == Property::MorphTargetWeights {
            continue;
        }
        let node = channel.node;
        let what = format!(
            "channel {} ({} {})",
            channel.index,
            hierarchy.node_label(node),
            property_name(property)
        );
        let sampler = channel.sampler;
        let interpolation = match sampler.interpolation {
            document::Interpolation::Step => Interpolation::Step,
            document::Interpolation::Linear => Interpolation::Linear,
            document::Interpolation::CubicSpline => Interpolation::CubicSpline,
        };
        let times = accessor::floats(
            buffers,
            &sampler.input,
            &format!("{what} key times"),
            Dimensions::Scalar,
            FLOAT,
        )?;
        let output = sampler.output;
        let values_what = format!("{what} values");
        let values = match property {
            Property::Rotation => {
                let flat =
                    accessor::floats(buffers, &output, &values_what, Dimensions::Vec4, NORMALIZED)?;
                Values::Rotation(flat.chunks_exact(4).map(Quat::from_slice).collect())
            }
            Property::Translation | Property::Scale => {
                let flat =
                    accessor::floats(buffers, &output, &values_what, Dimensions::Vec3, FLOAT)?;
                let v: Vec<Vec3> = flat.chunks_exact(3).map(Vec3::from_slice).collect();
                if property == Property::Translation {
                    Values::Translation(v)
                } else {
                    Values::Scale(v)
                }
            }
            Property::MorphTargetWeights => continue,
        };
        channels.push(Channel {
            joint: hierarchy.joint_of_node[node],
            interpolation,
            times,
            values,
        });
        source.push((channel.index, node));
    }
    Clip::new(name, hierarchy.joints.len(), channels).map_err(|e| {
        let (index, node) = source.get(e.channel).copied().unwrap_or((e.channel, 0));
        ModelError::new(format!(
            "channel {index} ({} {}): {}",
            hierarchy.node_label(node),
            e.property.name(),
            e.problem
        ))
    })
}

fn property_name(p: Property) -> &'static str {
    match p {
        Property::Translation => "translation",
        Property::Rotation => "rotation",
        Property::Scale => "scale",
        Property::MorphTargetWeights => "weights",
    }
}
