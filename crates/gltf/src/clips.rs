//! Animations as clips. A broken animation is left out with a warning naming it: the
//! model and its other clips still load.

use super::accessor::{self, FLOAT, NORMALIZED};
use super::container::Buffers;
use super::document::{self, Dimensions, Document, Property};
use super::nodes::Hierarchy;
use super::{ModelError, quoted};
use glam::{Quat, Vec3};
use skin::clip::{Channel, Clip, Interpolation, Values, WeightsChannel};

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
        if let Some(reason) = &animation.broken {
            warnings.push(format!("{label} was left out: {reason}"));
            continue;
        }
        match clip(buffers, animation, &name, hierarchy) {
            Ok(mut clip) => {
                morph_channels += weights(
                    document, buffers, animation, &label, hierarchy, &mut clip, warnings,
                );
                morph_clips += usize::from(!clip.weights_channels().is_empty());
                out.push(clip);
            }
            Err(e) => warnings.push(format!("{label} was left out: {e}")),
        }
    }
    if morph_channels > 0 {
        notes.push(format!(
            "{morph_clips} {} {morph_channels} channels of morph target weights in all",
            if morph_clips == 1 {
                "animation has"
            } else {
                "animations have"
            }
        ));
    }
    out
}

/// The `weights` channels of `animation`, added to `clip`; how many were. A channel
/// that cannot be played (its node has no mesh with morph targets, or its keys do not
/// fit) is left out with a warning naming it, and the clip plays without it.
fn weights(
    document: &Document,
    buffers: &Buffers,
    animation: &document::Animation,
    label: &str,
    hierarchy: &Hierarchy,
    clip: &mut Clip,
    warnings: &mut Vec<String>,
) -> usize {
    let mut added = 0;
    let channels = animation.channels.iter();
    for channel in channels.filter(|c| c.property == Property::MorphTargetWeights) {
        let what = format!(
            "{label} channel {} ({} weights)",
            channel.index,
            hierarchy.node_label(channel.node)
        );
        let targets = (document.nodes.get(channel.node))
            .and_then(|node| document.meshes.get(node.mesh?))
            .and_then(|mesh| Some(mesh.primitives.first()?.targets.len()))
            .unwrap_or(0);
        let read = || -> Result<WeightsChannel, String> {
            if targets == 0 {
                return Err("its node has no mesh with morph targets".to_owned());
            }
            let sampler = channel.sampler;
            let floats = |accessor, what: &str, formats| {
                accessor::floats(buffers, accessor, what, Dimensions::Scalar, formats)
                    .map_err(|e| e.message().to_owned())
            };
            Ok(WeightsChannel {
                joint: hierarchy.joint_of_node[channel.node],
                interpolation: interpolation(sampler.interpolation),
                times: floats(&sampler.input, "key times", FLOAT)?,
                targets,
                values: floats(&sampler.output, "weights", NORMALIZED)?,
            })
        };
        let added_here = read().and_then(|weights| {
            (clip.add_weights(weights, hierarchy.joints.len())).map_err(|e| e.to_string())
        });
        match added_here {
            Ok(()) => added += 1,
            Err(why) => warnings.push(format!("{what} was left out: {why}")),
        }
    }
    added
}

fn interpolation(i: document::Interpolation) -> Interpolation {
    match i {
        document::Interpolation::Step => Interpolation::Step,
        document::Interpolation::Linear => Interpolation::Linear,
        document::Interpolation::CubicSpline => Interpolation::CubicSpline,
    }
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
        let interpolation = interpolation(sampler.interpolation);
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
